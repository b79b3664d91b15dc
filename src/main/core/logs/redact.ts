import { MASK_MARKER } from '../../../shared/masked';
import type { Problem } from '../../../shared/problem';

/**
 * Secret hygiene. Endpoint tokens, API keys and Authorization headers must never reach logs, errors
 * or the UI, so everything that prints goes through here.
 */

/**
 * Names that usually hold a secret. `key`, `pass`, `ak`/`sk` and `dsn` count as words of a name
 * (`OPENAI_KEY`, `DB_PASS`, `ALIYUN_AK`, `SENTRY_DSN`), not inside other words (`MONKEY`, `ASK`).
 */
const SECRET_NAME =
  /(token|secret|passw(or)?d|passphrase|pwd|api[-_]?key|apikey|auth|credential|private[-_]?key|session|cookie|bearer|signature|webhook|(^|[-_.])(key|pass|pat|sig|ak|sk|dsn)($|[-_.]))/i;

/** True for env var / header / query / option names that usually hold a secret. */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Keeps the first few characters so users can tell two secrets apart. */
export function maskSecret(value: string): string {
  if (value.length <= 8) return MASK_MARKER;
  return `${value.slice(0, 4)}${MASK_MARKER}`;
}

/** `scheme://user:PASSWORD@host`: the password of a URL, wherever it stands in a text. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@"']*:)([^\s@/"']+)(@)/gi;

/** The password in a URL (`postgresql://admin:PASS@db/app`), or undefined. */
export function urlPassword(value: string): string | undefined {
  URL_PASSWORD.lastIndex = 0;
  const match = URL_PASSWORD.exec(value);
  return match && !(match[2] as string).includes('(redacted)') ? decodeURIComponentSafe(match[2] as string) : undefined;
}

/** The same value with a URL password in it masked, and nothing else changed. */
export function maskUrlPassword(value: string): string {
  return value.replace(URL_PASSWORD, (whole, head: string, password: string, at: string) =>
    password.includes('(redacted)') ? whole : `${head}${maskSecret(password)}${at}`,
  );
}

function encodeURIComponentSafe(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text; // a lone surrogate
  }
}

/** `decodeURIComponent`, or the text as it is where it is no valid percent-encoding. */
export function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Query values of a URL whose names look secret (`?key=`, `?token=`, `api_key=`). */
export function secretQueryValues(raw: string): string[] {
  try {
    return [...new URL(raw).searchParams].filter(([key]) => looksSecret(key)).map(([, value]) => value);
  } catch {
    return [];
  }
}

interface SecretArg {
  index: number;
  /** How the argument is shown masked. */
  shown: string;
  values: string[];
}

/**
 * Secrets on a command line: `--api-key=VALUE`, `--token VALUE`, `API_KEY=VALUE`, a header given as
 * `"Authorization: Bearer X"` (mcp-remote's `--header`), a URL with a secret query or a password.
 */
function secretArgs(args: readonly string[]): SecretArg[] {
  const found: SecretArg[] = [];
  args.forEach((arg, index) => {
    const inline = /^(-{0,2}[A-Za-z][\w.-]*=)(.+)$/.exec(arg);
    if (inline && looksSecret((inline[1] as string).replace(/^-+|=$/g, ''))) {
      found.push({ index, shown: `${inline[1]}${maskSecret(inline[2] as string)}`, values: [inline[2] as string] });
      return;
    }
    const header = /^([A-Za-z][\w-]*\s*:\s*)((?:bearer|basic|token)\s+)?(\S.*)$/i.exec(arg);
    if (header && looksSecret((header[1] as string).replace(/\s*:\s*$/, ''))) {
      found.push({ index, shown: `${header[1]}${header[2] ?? ''}${maskSecret(header[3] as string)}`, values: [header[3] as string] });
      return;
    }
    const previous = args[index - 1];
    if (previous && /^--?[A-Za-z][\w-]*$/.test(previous) && looksSecret(previous.replace(/^-+/, '')) && !arg.startsWith('-')) {
      found.push({ index, shown: maskSecret(arg), values: [arg] });
      return;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) {
      const values = [...secretQueryValues(arg), ...[urlPassword(arg)].filter((v): v is string => v !== undefined)];
      if (values.length > 0) found.push({ index, shown: maskUrlPassword(redactUrlQuery(arg)), values });
    }
  });
  return found;
}

/** Secret values given on a command line (for known-value redaction). */
export function secretArgValues(args: readonly string[]): string[] {
  return secretArgs(args).flatMap((a) => a.values);
}

/** A command line as a UI may show it: secret option values, headers, URL queries and passwords masked. */
export function maskArgs(args: readonly string[]): string[] {
  const out = args.slice();
  for (const { index, shown } of secretArgs(args)) out[index] = shown;
  return out;
}

/** A URL's query values with secret-looking names masked; the rest of the text unchanged. */
function redactUrlQuery(raw: string): string {
  const at = raw.indexOf('?');
  if (at === -1) return raw;
  const [query, fragment] = raw.slice(at + 1).split('#', 2) as [string, string | undefined];
  const pairs = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1 || !looksSecret(decodeURIComponentSafe(pair.slice(0, eq)))) return pair;
    const value = pair.slice(eq + 1);
    return value.includes('(redacted)') ? pair : `${pair.slice(0, eq)}=${maskSecret(decodeURIComponentSafe(value))}`;
  });
  return `${raw.slice(0, at)}?${pairs.join('&')}${fragment === undefined ? '' : `#${fragment}`}`;
}

/** `wss://api.xiaozhi.me/mcp/?token=eyJh…(redacted)`: secret query values and passwords masked. */
export function redactUrl(raw: string): string {
  try {
    new URL(raw);
  } catch {
    return redactText(raw);
  }
  return maskUrlPassword(redactUrlQuery(raw));
}

const SECRET_QUERY = /([?&;](?:[a-z_-]*(?:token|key|secret|password|auth|sig|signature)[a-z_-]*)=)([^&\s"'#]+)/gi;
/** Headers whose value is a credential: Authorization, cookies, API-key, token and subscription-key headers. */
const CREDENTIAL_HEADER = String.raw`proxy-authorization|authorization|set-cookie|cookie|api-key|(?:[a-z]{1,30}-){1,4}(?:token|api-key|subscription-key)`;
/** Such a header and the rest of its line: its value is all of it (a scheme it does not know, `a=1; b=2`). */
const AUTH_HEADER = new RegExp(String.raw`\b(${CREDENTIAL_HEADER})(\s*["']?\s*[:=]\s*["']?)(bearer\s+|basic\s+|token\s+)?([^\r\n]*)`, 'gi');
/** The same written percent-encoded (`%22Authorization%22%3A%22Bearer%20…`: headers carried in a URL or a form). */
const ENCODED_AUTH_HEADER = new RegExp(
  String.raw`(?<![a-z-])(${CREDENTIAL_HEADER})((?:%22)?(?:%3A|%3D)(?:%20|\+|%22)*)((?:bearer|basic|token)(?:%20|\+)+)?([\w.~/-]+)`,
  'gi',
);
const BEARER = /\b(bearer\s+)([a-z0-9._~+/=-]{8,})/gi;
const JWT = /\beyJ[a-zA-Z0-9_-]{6,}\.[a-zA-Z0-9_-]{6,}\.[a-zA-Z0-9_-]*/g;
/** `password=…`, `"apiKey": "…"`, `secret: …`, `OPENAI_API_KEY=…`, `HA_TOKEN=…` in free text (a bare
 * `token:` is left to prose: "each app now has its own token: choose…") (config dumps, error messages). */
const SECRET_ASSIGNMENT =
  /\b((?:(?:[a-z0-9]{1,30}[_-]){0,4}(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|client[_-]?secret)|(?:[a-z0-9]{1,30}[_-]){1,4}token)["']?\s*[:=]\s*["']?)([^\s"',;}&]{4,})/gi;
/** Key formats that are secrets by their look alone: OpenAI/Anthropic, GitHub, AWS, Slack, Google. */
const KNOWN_KEY_FORMATS =
  /\b(sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|AKIA[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,})/g;

const masked = (value: string) => value.includes('(redacted)');

/**
 * Words a sentence puts after the label ("Authorization: must be set", "Authorization: required."):
 * a closed list, since a password is often a word too ("Authorization: changeme"), and a secret
 * shown is worse than a word hidden.
 */
const PROSE_AFTER_LABEL = new Set(
  'must required missing needed invalid denied failed expected expired empty none null undefined not no is was are the a an header headers should set unset absent rejected malformed wrong too has'.split(
    ' ',
  ),
);

/** An English sentence after the label, not a header's value: unquoted, no scheme, its first word one prose puts there. */
function proseAfterLabel(sep: string, scheme: string | undefined, value: string): boolean {
  const first = /^[A-Za-z]+(?=[.!?:),;]*(?:\s|$))/.exec(value)?.[0];
  return scheme === undefined && !/["']/.test(sep) && first !== undefined && PROSE_AFTER_LABEL.has(first.toLowerCase());
}

/** A credential header's value and what follows it: a quoted value ends at its closing quote, a bare one with its line. */
function headerValue(sep: string, rest: string): [value: string, after: string] {
  const quote = /["']/.exec(sep)?.[0];
  const end = quote === undefined ? -1 : rest.search(quote === '"' ? /(?<!\\)"/ : /(?<!\\)'/);
  return end === -1 ? [rest, ''] : [rest.slice(0, end), rest.slice(end)];
}

/** One credential header's value masked; the headers after it on its line (a JSON object of them) in turn. */
function maskCredentialHeader(_whole: string, name: string, sep: string, scheme: string | undefined, rest: string): string {
  const [value, after] = headerValue(sep, rest);
  const head = `${name}${sep}${scheme ?? ''}`;
  // Masked already (a known secret: one token with the marker), a sentence, or nothing: kept.
  if (/^\S*\(redacted\)\S*$/.test(value.trim()) || proseAfterLabel(sep, scheme, value) || value.trim() === '')
    return `${head}${value}${after.replace(AUTH_HEADER, maskCredentialHeader)}`;
  return `${head}${MASK_MARKER}${after.replace(AUTH_HEADER, maskCredentialHeader)}`;
}

/** Scrubs free text (log lines, error messages, a child's stderr) of anything that looks like a secret. */
export function redactText(text: string, knownSecrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret.length < 4) continue;
    out = out.split(secret).join(maskSecret(secret));
    // Also as it stands inside JSON text (call arguments, a result) and percent-encoded in a URL:
    // masked whole there, since its first characters could cut an escape in two.
    for (const form of [JSON.stringify(secret).slice(1, -1), encodeURIComponentSafe(secret)])
      if (form !== secret) out = out.split(form).join(MASK_MARKER);
  }
  return out
    .replace(
      SECRET_QUERY,
      (_m, head: string, value: string) => `${head}${value.startsWith('…') || masked(value) ? value : maskSecret(value)}`,
    )
    .replace(AUTH_HEADER, maskCredentialHeader)
    .replace(
      ENCODED_AUTH_HEADER,
      (_m, name: string, sep: string, scheme: string | undefined) => `${name}${sep}${scheme ?? ''}${MASK_MARKER}`,
    )
    .replace(BEARER, (_m, head: string) => `${head}${MASK_MARKER}`)
    .replace(JWT, (token) => maskSecret(token))
    .replace(URL_PASSWORD, (whole, head: string, password: string, at: string) => (masked(password) ? whole : `${head}${MASK_MARKER}${at}`))
    .replace(SECRET_ASSIGNMENT, (whole, head: string, value: string) =>
      masked(value) || value.startsWith('…') ? whole : `${head}${maskSecret(value)}`,
    )
    .replace(KNOWN_KEY_FORMATS, (key) => maskSecret(key));
}

/** A value as a UI may see it under this name: masked whole when the name looks secret, else its URL password. */
export function maskValue(name: string, value: string): string {
  return looksSecret(name) ? maskSecret(value) : maskUrlPassword(value);
}

/** A copy of a name→value map with secret-looking values masked (env, headers). */
export function redactRecord(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, maskValue(key, value)]));
}

/** A problem's parameters carry text from outside (a stderr line, an error's detail): redacted like it. */
export function redactProblem(problem: Problem, redact: (text: string) => string): Problem {
  return {
    ...problem,
    params: Object.fromEntries(Object.entries(problem.params).map(([k, v]) => [k, typeof v === 'string' ? redact(v) : v])),
  };
}
