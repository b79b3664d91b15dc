/** Argument names whose values are secrets (api_key, accessToken, password, Authorization…): never shown or said. */
export const SECRET_ARGUMENT = /(api[_-]?key|^key$|[_-]key$|secret|token|passw(or)?d|^pwd$|authori[sz]ation|cookie|credential)/i;
export const HIDDEN_VALUE = '***';

/** How many arguments a list shows, and how long one value may be there: the full JSON is one click away. */
const LISTED_ARGUMENTS = 12;
const LISTED_VALUE_CHARS = 120;

/** One argument as a person reads it: its name, its value as text (strings as they are, no quotes). */
export interface ReadableArgument {
  name: string;
  value: string;
}

/**
 * A call's arguments as a list a person reads ("path: /home/me/a.txt", not `{"path":"/home/me/a.txt"}`):
 * strings unquoted, nested values written short (`oldText: 牛奶, newText: 酸奶`) and cut, secrets hidden.
 * Arguments that are not an object (or JSON text that does not read) give no list: the raw text is shown instead.
 */
export function readableArguments(args: unknown): ReadableArgument[] | undefined {
  const value = typeof args === 'string' ? parsed(args) : args;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.entries(value)
    .slice(0, LISTED_ARGUMENTS)
    .map(([name, item]) => ({
      name: shownCodes(name),
      value: SECRET_ARGUMENT.test(name) ? HIDDEN_VALUE : cut(shownCodes(shortText(item, 0)), LISTED_VALUE_CHARS),
    }));
}

/**
 * The arguments as indented JSON, the values of secret-named fields hidden at any depth: the "details"
 * under the list. JSON text is read first; text that does not read stays as it is.
 */
export function argumentsJson(args: unknown): string {
  const value = typeof args === 'string' ? parsed(args) : args;
  if (value === undefined) return String(args);
  const json = JSON.stringify(hideSecrets(value, 0), null, 2);
  return json === undefined ? String(args) : json.replace(REORDERING, codeOf);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * How deep nested values are written: a model's arguments nested thousands deep would overflow the
 * stack (and the panel with it); what lies deeper is left out, behind "…", secrets included.
 */
const MAX_DEPTH = 32;
const DEEPER = '…';

/** A value written short: strings as they are, lists joined by "; ", objects as "name: value" pairs. */
function shortText(value: unknown, depth: number): string {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ');
  if (depth >= MAX_DEPTH && typeof value === 'object' && value !== null) return DEEPER;
  if (Array.isArray(value))
    return value.map((item) => (isPlainObject(item) ? `(${shortText(item, depth + 1)})` : shortText(item, depth + 1))).join('; ');
  if (isPlainObject(value))
    return Object.entries(value)
      .map(([name, item]) => `${name}: ${SECRET_ARGUMENT.test(name) ? HIDDEN_VALUE : shortText(item, depth + 1)}`)
      .join(', ');
  return JSON.stringify(value) ?? String(value);
}

function hideSecrets(value: unknown, depth: number): unknown {
  if (depth >= MAX_DEPTH && typeof value === 'object' && value !== null) return DEEPER;
  if (Array.isArray(value)) return value.map((item) => hideSecrets(item, depth + 1));
  if (isPlainObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, SECRET_ARGUMENT.test(name) ? HIDDEN_VALUE : hideSecrets(item, depth + 1)]),
    );
  return value;
}

/**
 * Characters that reorder or hide the text around them (direction overrides and isolates, marks, line
 * separators, C1 codes): "/tmp/\u202Egnp.exe" would read as "/tmp/exe.png" in the panel that asks
 * whether to run it. Shown as their codes; C0 codes too in the list (JSON escapes those itself).
 */
const REORDERING = /[\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROL = /[\u0000-\u001f\u007f\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const codeOf = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
/** Text from outside (arguments, a server's titles) with what would reorder or hide it shown as codes. */
export const shownCodes = (text: string) => text.replace(CONTROL, codeOf);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const cut = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text);
