import { type Problem, problem } from '../../../shared/problem';
import { failureCause } from './failure-cause';

/**
 * The cause a failed call's own text names ("Tavily API error: getaddrinfo ENOTFOUND api.tavily.com"),
 * so the window can say it first in the person's language; the text itself is unchanged (xiaozhi gets
 * it as the server wrote it). Read with the classifier of our own failures; only causes of reaching a
 * site or being refused by it, and the common system errors of a file, are kept: anything else a
 * server writes is its own business.
 */
export function callFailureCause(text: string): Problem | undefined {
  return fileCause(text.slice(0, 2000)) ?? siteFailureCause(text);
}

/** Only the causes of reaching a site or being refused by it (a program's start reads these: a file it missed is its own). */
export function siteFailureCause(text: string): Problem | undefined {
  if (!text.trim()) return undefined;
  const head = text.slice(0, 2000);
  if (TOO_MANY.test(head)) return problem('http.tooMany', { status: 429 });
  const cause = failureCause(new Error(head));
  if (cause.code === 'other' && /\b401\b/.test(head) && UNAUTHORIZED.test(head)) return problem('http.unauthorized', { status: 401 });
  if (cause.code === 'other' && /\b403\b/.test(head)) return problem('http.forbidden', { status: 403 });
  if (!KEPT.test(cause.code)) return undefined;
  // Another 4xx is the request's own fault (the server's words say it best); a 5xx is the site's.
  if (cause.code === 'http.status' && Number(cause.params.status) < 500) return undefined;
  if (cause.code.startsWith('net.')) return { code: cause.code, params: { host: hostIn(head) ?? '' } };
  return cause;
}

/**
 * The system errors a file server passes on as Node words them (server-filesystem's "ENOENT: no such
 * file or directory, open '…'", and its own "Access denied - path outside allowed directories: …" and
 * "Parent directory does not exist: …",
 * src/filesystem/lib.ts in modelcontextprotocol/servers). A program not found ("spawn x ENOENT") is not one.
 */
function fileCause(text: string): Problem | undefined {
  if (OUTSIDE.test(text)) return { code: 'fs.outside', params: {} };
  if ((/\bENOENT\b/.test(text) && !/\bspawn\s+\S+\s+ENOENT\b/.test(text)) || PARENT_GONE.test(text))
    return { code: 'fs.notFound', params: {} };
  if (/\b(?:EACCES|EPERM)\b/.test(text)) return { code: 'fs.denied', params: {} };
  return undefined;
}

const OUTSIDE = /\bpath outside (?:the )?allowed director(?:y|ies)\b/i;
/** server-filesystem's words when the folder a path is in is gone ("Parent directory does not exist: …"). */
const PARENT_GONE = /\bparent directory does not exist\b/i;

/** Reaching a site, or being refused by it: `net.*` and `http.*` (a command not found is not a call's cause). */
const KEPT = /^(?:net|http)\./;
const TOO_MANY = /\b429\b|too many requests|rate[- ]limit(?:ed)?\b|quota exceeded/i;
const UNAUTHORIZED = /unauthori[sz]ed|api[- _]?key|token|credential/i;

/** The host a Node or undici error names ("ENOTFOUND api.x.com", "ECONNREFUSED 127.0.0.1:80"), or the first URL's. */
function hostIn(text: string): string | undefined {
  const named =
    /\b(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH)\s+\[?([\w.:-]+?)\]?(?::\d+)?(?=[\s,;)]|$)/.exec(
      text,
    )?.[1];
  if (named) return named;
  const url = /\b(?:https?|wss?):\/\/[^\s'"`<>)]+/.exec(text)?.[0];
  if (!url) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
