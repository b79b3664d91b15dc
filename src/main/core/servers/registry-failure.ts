import { type Problem, problem } from '../../../shared/problem';

/**
 * A package runner (npx, uvx) that could not reach its package registry: no DNS, a certificate an
 * antivirus or proxy swapped, a timeout. Read from the runner's own lines only (npm's `npm error …`,
 * uv's "Failed to fetch"), never from the server's: a server of its own that cannot reach a site is
 * not a registry problem. In mainland China this is the usual first-run failure, and a mirror fixes it.
 */
export function registryUnreachable(stderr: readonly string[]): Problem | undefined {
  const npm = stderr.filter((line) => NPM_LINE.test(line));
  const npmReason = reasonOf(npm.join('\n'));
  if (npmReason)
    return problem('server.registryUnreachable', { runner: 'npm', host: hostOf(npm) ?? 'registry.npmjs.org', reason: npmReason });
  // uv's report is a chain ("Failed to fetch: …", "Caused by: error sending request…", "dns error…"), often indented or boxed.
  const uv = stderr.map((line) => line.replace(/^[\s×│├╰─▶:]+/u, ''));
  if (!uv.some((line) => UV_FETCH.test(line))) return undefined;
  return problem('server.registryUnreachable', {
    runner: 'uv',
    host: hostOf(uv.filter((line) => UV_FETCH.test(line))) ?? 'pypi.org',
    reason: reasonOf(uv.join('\n')) ?? 'network',
  });
}

const NPM_LINE = /^npm (?:error|ERR!) /;
const UV_FETCH = /\bFailed to (?:fetch|download)\b|\berror sending request for url\b/i;

const REASONS: [string, RegExp][] = [
  ['dns', /\b(?:ENOTFOUND|EAI_AGAIN|EAI_NONAME)\b|dns error|failed to lookup address/i],
  [
    'tls',
    /\b(?:UNABLE_TO_GET_ISSUER_CERT\w*|UNABLE_TO_VERIFY\w*|SELF_SIGNED\w*|DEPTH_ZERO\w*|CERT_\w+|ERR_TLS\w*)\b|certificate|UnknownIssuer/i,
  ],
  ['timeout', /\b(?:ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT)\b|timed out/i],
  ['reset', /\b(?:ECONNRESET|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH)\b|connection (?:reset|refused)|socket hang up/i],
];

function reasonOf(text: string): string | undefined {
  return REASONS.find(([, pattern]) => pattern.test(text))?.[0];
}

function hostOf(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const url = /https?:\/\/[^\s`'")]+/.exec(line)?.[0];
    if (!url) continue;
    try {
      return new URL(url).hostname;
    } catch {
      // not a URL after all: try the next line
    }
  }
  return undefined;
}
