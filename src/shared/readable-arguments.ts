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
    .map(([name, item]) => ({ name, value: SECRET_ARGUMENT.test(name) ? HIDDEN_VALUE : cut(shortText(item), LISTED_VALUE_CHARS) }));
}

/**
 * The arguments as indented JSON, the values of secret-named fields hidden at any depth: the "details"
 * under the list. JSON text is read first; text that does not read stays as it is.
 */
export function argumentsJson(args: unknown): string {
  const value = typeof args === 'string' ? parsed(args) : args;
  if (value === undefined) return String(args);
  return JSON.stringify(hideSecrets(value), null, 2) ?? String(args);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A value written short: strings as they are, lists joined by "; ", objects as "name: value" pairs. */
function shortText(value: unknown): string {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ');
  if (Array.isArray(value)) return value.map((item) => (isPlainObject(item) ? `(${shortText(item)})` : shortText(item))).join('; ');
  if (isPlainObject(value))
    return Object.entries(value)
      .map(([name, item]) => `${name}: ${SECRET_ARGUMENT.test(name) ? HIDDEN_VALUE : shortText(item)}`)
      .join(', ');
  return JSON.stringify(value) ?? String(value);
}

function hideSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideSecrets);
  if (isPlainObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, SECRET_ARGUMENT.test(name) ? HIDDEN_VALUE : hideSecrets(item)]),
    );
  return value;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const cut = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text);
