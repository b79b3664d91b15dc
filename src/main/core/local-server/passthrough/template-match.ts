/**
 * Whether a URI is one a URI template (RFC 6570, as the MCP SDK's `UriTemplate.match` reads it)
 * expands to, decided in time linear in the URI. The SDK builds a backtracking regex: a template
 * of a few adjacent expressions (`{a}{b}{c}{d}{e}{f}!`, a hostile server's, or any) held the event
 * loop for minutes on a 120-character URI a client sent. Here the same pattern is run as a set of
 * states stepped once per character. Only the answer is kept: who owns the URI, not its variables.
 */

/** Longer templates and URIs are not matched (a template past it claims nothing), nor a server's templates past the first MAX_MATCHED_TEMPLATES. */
export const MAX_MATCHED_TEMPLATES = 200;
export const MAX_MATCHED_TEMPLATE = 1_000;
export const MAX_MATCHED_URI = 4_096;

/** One step: a literal character, or one or more characters of a class. */
type Token = string | { repeat: (c: string) => boolean };

const notSlashComma = (c: string) => c !== '/' && c !== ',';
const notSlash = (c: string) => c !== '/';
const notAmp = (c: string) => c !== '&';
const anyButNewline = (c: string) => c !== '\n' && c !== '\r' && c !== '\u2028' && c !== '\u2029';

export interface TemplateMatcher {
  /** What every URI it matches starts with (quick refusal). */
  readonly prefix: string;
  matches(uri: string): boolean;
}

export function templateMatcher(template: string): TemplateMatcher | undefined {
  if (template.length > MAX_MATCHED_TEMPLATE) return undefined;
  const tokens: Token[] = [];
  const literal = (text: string) => tokens.push(...text);
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      literal(template.slice(i));
      break;
    }
    literal(template.slice(i, open));
    const close = template.indexOf('}', open);
    if (close < 0) return undefined;
    if (!expression(template.slice(open + 1, close), tokens)) return undefined;
    i = close + 1;
  }
  const first = tokens.findIndex((t) => typeof t !== 'string');
  const prefix = (first < 0 ? tokens : tokens.slice(0, first)).join('');
  return { prefix, matches: (uri) => uri.length <= MAX_MATCHED_URI && uri.startsWith(prefix) && run(tokens, uri) };
}

/** The tokens of one `{…}` as the SDK's regex has them; false when it is not one. */
function expression(body: string, tokens: Token[]): boolean {
  const operator = /^[+#./;?&]/.test(body) ? (body[0] as string) : '';
  const names = body
    .slice(operator.length)
    .split(',')
    .map((n) => n.trim());
  if (names.some((n) => n.replace('*', '') === '')) return false;
  const exploded = body.includes('*');
  if (operator === '?' || operator === '&') {
    names.forEach((name, n) => tokens.push(n === 0 ? operator : '&', ...name, '=', { repeat: notAmp }));
    return true;
  }
  if (operator === '+' || operator === '#') tokens.push({ repeat: anyButNewline });
  else if (operator === '.' || operator === '/') tokens.push(operator, { repeat: exploded ? notSlash : notSlashComma });
  else if (operator === '') tokens.push({ repeat: exploded ? notSlash : notSlashComma });
  else tokens.push({ repeat: notSlash });
  return true;
}

/**
 * The tokens run over the URI. State k means "the first k tokens are matched"; it is reached only
 * by token k-1 taking a character, so when that token is a repeat it may stay there on another of
 * its class. Exploded values (`a,b`) are read as one run without `/` (the SDK's exact form also
 * refuses an empty item).
 */
function run(tokens: Token[], uri: string): boolean {
  const m = tokens.length;
  let now = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  now[0] = 1;
  for (const c of uri) {
    next.fill(0);
    let alive = false;
    for (let k = 0; k <= m; k++) {
      if (!now[k]) continue;
      const ahead = tokens[k];
      if (ahead !== undefined && (typeof ahead === 'string' ? ahead === c : ahead.repeat(c))) {
        next[k + 1] = 1;
        alive = true;
      }
      const behind = tokens[k - 1];
      if (behind !== undefined && typeof behind !== 'string' && behind.repeat(c)) {
        next[k] = 1;
        alive = true;
      }
    }
    if (!alive) return false;
    [now, next] = [next, now];
  }
  return now[m] === 1;
}
