/**
 * Secret hygiene. Endpoint tokens, API keys and Authorization headers must never reach logs, errors
 * or the UI, so everything that prints goes through here.
 */

/**
 * Names that usually hold a secret. `key` and `pass` count as words of a name (`OPENAI_KEY`,
 * `DB_PASS`, `api_key`, `x-key`), not inside other words (`MONKEY`, `KEYBOARD`).
 */
const SECRET_NAME =
  /(token|secret|passw(or)?d|passphrase|pwd|api[-_]?key|apikey|auth|credential|private[-_]?key|session|cookie|bearer|signature|(^|[-_.])(key|pass|pat|sig)($|[-_.]))/i;

/** True for env var / header / query / option names that usually hold a secret. */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Query values of a URL whose names look secret (`?key=`, `?token=`, `api_key=`). */
export function secretQueryValues(raw: string): string[] {
  try {
    return [...new URL(raw).searchParams].filter(([key]) => looksSecret(key)).map(([, value]) => value);
  } catch {
    return [];
  }
}

/** `--api-key=VALUE`, `--token VALUE`, `API_KEY=VALUE`: the option and where its value sits. */
function secretArgs(args: readonly string[]): { index: number; prefix: string; value: string }[] {
  const found: { index: number; prefix: string; value: string }[] = [];
  args.forEach((arg, index) => {
    const inline = /^(-{0,2}[A-Za-z][\w.-]*=)(.+)$/.exec(arg);
    if (inline && looksSecret((inline[1] as string).replace(/^-+|=$/g, ''))) {
      found.push({ index, prefix: inline[1] as string, value: inline[2] as string });
      return;
    }
    const previous = args[index - 1];
    if (previous && /^--?[A-Za-z][\w-]*$/.test(previous) && looksSecret(previous.replace(/^-+/, '')) && !arg.startsWith('-')) {
      found.push({ index, prefix: '', value: arg });
      return;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) for (const value of secretQueryValues(arg)) found.push({ index, prefix: '', value });
  });
  return found;
}

/** Secret values given on a command line (for known-value redaction). */
export function secretArgValues(args: readonly string[]): string[] {
  return secretArgs(args).map((a) => a.value);
}

/** A command line as a UI may show it: secret option values masked, secret URL queries masked. */
export function maskArgs(args: readonly string[]): string[] {
  const out = args.slice();
  for (const { index, prefix, value } of secretArgs(args)) {
    const arg = out[index] as string;
    out[index] = prefix ? `${prefix}${maskSecret(value)}` : arg === value ? maskSecret(value) : redactUrl(arg);
  }
  return out;
}

/** Keeps the first few characters so users can tell two secrets apart. */
export function maskSecret(value: string): string {
  if (value.length <= 8) return '…(redacted)';
  return `${value.slice(0, 4)}…(redacted)`;
}

/** `wss://api.xiaozhi.me/mcp/?token=eyJh…(redacted)`: query values with secret-looking names masked. */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return redactText(raw);
  }
  if (url.username) url.username = '…';
  if (url.password) url.password = '…';
  // Build by hand: URLSearchParams would percent-encode the ellipsis.
  const query = [...url.searchParams.entries()]
    .map(([key, value]) => `${key}=${looksSecret(key) ? maskSecret(value) : value}`)
    .join('&');
  url.search = '';
  const base = url.toString();
  return query ? `${base}?${query}` : base;
}

const SECRET_QUERY = /([?&;](?:[a-z_-]*(?:token|key|secret|password|auth|sig|signature)[a-z_-]*)=)([^&\s"'#]+)/gi;
const AUTH_HEADER = /\b(authorization|proxy-authorization|x-api-key|api-key)(\s*["']?\s*[:=]\s*["']?)(bearer\s+|basic\s+|token\s+)?([^\s"',;}]+)/gi;
const BEARER = /\b(bearer\s+)([a-z0-9._~+/=-]{8,})/gi;
const JWT = /\beyJ[a-zA-Z0-9_-]{6,}\.[a-zA-Z0-9_-]{6,}\.[a-zA-Z0-9_-]*/g;

/** Scrubs free text (log lines, error messages, a child's stderr) of anything that looks like a secret. */
export function redactText(text: string, knownSecrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret.length >= 4) out = out.split(secret).join(maskSecret(secret));
  }
  return out
    .replace(SECRET_QUERY, (_m, head: string, value: string) => `${head}${value.startsWith('…') || value.includes('…(redacted)') ? value : maskSecret(value)}`)
    .replace(AUTH_HEADER, (_m, name: string, sep: string, scheme: string | undefined, value: string) =>
      value.includes('(redacted)') ? `${name}${sep}${scheme ?? ''}${value}` : `${name}${sep}${scheme ?? ''}…(redacted)`,
    )
    .replace(BEARER, (_m, head: string) => `${head}…(redacted)`)
    .replace(JWT, (token) => maskSecret(token));
}

/** A copy of a name→value map with secret-looking values masked (env, headers). */
export function redactRecord(record: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) out[key] = looksSecret(key) ? maskSecret(value) : value;
  return out;
}
