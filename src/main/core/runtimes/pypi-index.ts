import { isDownloadUrl } from '../../../shared/mirrors';
import { DownloadError, fetchBounded } from './download-file';

/**
 * The most a project page of a PyPI index may be. PyPI's page for uv lists every file of every
 * release (some 7,000, 3-4 MB of HTML or JSON in 2026); a mirror's is the same.
 */
export const MAX_INDEX_PAGE_BYTES = 16 * 1024 * 1024;

/**
 * The HTML form only, by PEP 691's content negotiation (every index serves it; PEP 691 keeps it
 * required). Its JSON form is not asked for: parsed into objects, 16 MB of hostile JSON takes
 * hundreds of MB, where the HTML is read by a scan that keeps nothing but the text.
 */
const ACCEPT = 'application/vnd.pypi.simple.v1+html, text/html;q=0.01';

/**
 * Where `file` is, by the project page of `project` on the "simple" index at `index` (PEP 503: the
 * page is `<index>/<normalized name>/`, an anchor per file). Only the file's URL is taken from it:
 * what the index says of its hash is not asked (the app carries its own). The URL must be https
 * (or http on this machine), as a download source must.
 */
export async function wheelUrl(index: string, project: string, file: string, idleTimeoutMs?: number): Promise<string> {
  const page = `${index.endsWith('/') ? index : `${index}/`}${project}/`;
  const answer = await fetchBounded(page, {
    maxBytes: MAX_INDEX_PAGE_BYTES,
    accept: ACCEPT,
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
  });
  if (/json/i.test(answer.contentType))
    throw new DownloadError(`${page} answered JSON (${answer.contentType}), not the HTML page asked for`);
  const href = fromHtml(answer.body.toString('utf8'), file);
  if (href === undefined) throw new DownloadError(`${page} does not list ${file}`);
  let url: URL;
  try {
    // Relative to the page (after redirects), as both PEPs say; the fragment (#sha256=…) is the index's word, not ours.
    url = new URL(href, answer.url);
  } catch {
    throw new DownloadError(`${page} gives ${file} an address that is not a URL`);
  }
  url.hash = '';
  if (!isDownloadUrl(url.href)) throw new DownloadError(`${page} gives ${file} an address that is not https: ${url.protocol}//${url.host}`);
  return url.href;
}

/**
 * PEP 503: one anchor per file, whose text is the file name and whose href is where it is. Read by
 * a scan that passes each character a bounded number of times: a hostile page of "<a<a<a…" must not
 * cost what a backtracking pattern would.
 */
function fromHtml(text: string, file: string): string | undefined {
  const opening = /<a[\s>]/gi;
  for (let found = opening.exec(text); found; found = opening.exec(text)) {
    const close = tagEnd(text, found.index + 2);
    if (close < 0) return undefined;
    const end = text.indexOf('<', close + 1);
    if (end < 0) return undefined;
    opening.lastIndex = end;
    if (!/^<\/a\s*>/i.test(text.slice(end, end + 8)) || unescapeHtml(text.slice(close + 1, end).trim()) !== file) continue;
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(text.slice(found.index + 2, close));
    const value = href?.[1] ?? href?.[2] ?? href?.[3];
    if (value !== undefined) return unescapeHtml(value);
  }
  return undefined;
}

/** Where the tag that goes on from `from` ends: its first '>' outside a quoted attribute value, or -1. */
function tagEnd(text: string, from: number): number {
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The character references an index page uses in a URL or file name (&amp; above all). */
function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return Object.hasOwn(NAMED, name.toLowerCase()) ? NAMED[name.toLowerCase()]! : whole;
  });
}
