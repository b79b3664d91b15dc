import type { ErrorObject } from 'ajv';

import { hasMessage, type Language, type MessageKey, translate } from '../../../shared/i18n/translate';
import { own } from '../../../shared/own';

/**
 * The argument check's findings in the voice language: which argument, what it must be, what the
 * tool takes. Names, enum values and descriptions are the tool's own and stay as they are.
 */

const MAX_PROBLEMS = 5;
const MAX_EXPECTED_CHARS = 600;

interface Property {
  type?: unknown;
  default?: unknown;
  description?: unknown;
  enum?: unknown;
}

/** `/stops/0/station` → `stops[0].station` */
export function argumentPath(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

class Words {
  constructor(readonly language: Language) {}

  t(key: MessageKey, params: Record<string, string | number> = {}): string {
    return translate(this.language, key, params);
  }

  quoted(text: string): string {
    return this.t('voice.words.quoted', { text });
  }

  /** A JSON type as what a value must be ("a string"); an unknown one as it is. */
  must(type: unknown): string {
    const one = (t: string) => {
      const key = `voice.args.a.${t}`;
      return hasMessage(key) ? this.t(key) : t;
    };
    return Array.isArray(type) ? type.map((t) => one(String(t))).join(this.t('voice.words.or')) : one(String(type));
  }

  /** A JSON type as a list names it: English keeps the schema's word, Chinese says it. */
  kind(type: unknown): string {
    const one = (t: string) => {
      const key = `voice.args.kind.${t}`;
      return hasMessage(key) ? this.t(key) : t;
    };
    if (Array.isArray(type)) return type.map((t) => one(String(t))).join(' | ');
    return one(String(type));
  }

  oneOf(values: unknown[]): string {
    return this.t('voice.args.oneOf', { values: values.map((v) => JSON.stringify(v)).join(this.t('voice.words.list')) });
  }

  /** A value as the model sent it, cut short; an object or array only by its kind (it may be huge, or nested too deep to stringify). */
  short(value: unknown): string {
    if (Array.isArray(value)) return this.t('voice.args.a.array');
    if (typeof value === 'object' && value !== null) return this.t('voice.args.a.object');
    const shown =
      typeof value === 'string' ? JSON.stringify(value.length > 40 ? value.slice(0, 40) : value) : (JSON.stringify(value) ?? String(value));
    return shown.length > 40 ? `${shown.slice(0, 39)}…` : shown;
  }

  /** A value with its kind: `a number (42)`. */
  value(value: unknown): string {
    if (value === null) return 'null';
    const kind = typeof value;
    if (kind === 'object') return this.short(value);
    const key = `voice.args.value.${kind}`;
    return this.t('voice.args.value', { kind: hasMessage(key) ? this.t(key) : kind, value: this.short(value) });
  }

  property(property: Property | undefined): string {
    if (!property) return '';
    const kind = Array.isArray(property.enum)
      ? this.oneOf(property.enum)
      : property.type !== undefined
        ? this.kind(property.type)
        : undefined;
    const description =
      typeof property.description === 'string' && property.description
        ? property.description.length > 80
          ? `${property.description.slice(0, 79)}…`
          : property.description
        : undefined;
    if (kind !== undefined && description !== undefined) return this.t('voice.args.described', { kind, description });
    return kind ?? description ?? '';
  }
}

/** The value the error is about, found by its path in the arguments. */
function valueAt(args: unknown, instancePath: string): unknown {
  let value = args;
  for (const part of instancePath.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = own(value as Record<string, unknown>, part.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return value;
}

/** One error of ajv's as a short line: which argument, what it must be. */
export function argumentProblem(error: ErrorObject, args: unknown, schema: Record<string, unknown>, language: Language): string {
  const w = new Words(language);
  const params = error.params as Record<string, unknown>;
  const at = argumentPath(error.instancePath);
  const name = at ? w.quoted(at) : w.t('voice.args.whole');
  const actual = () => w.short(valueAt(args, error.instancePath));
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const property = error.instancePath === '' ? own(schema.properties as Record<string, Property> | undefined, missing) : undefined;
      const detail = w.property(property);
      const missingName = w.quoted(argumentPath(error.instancePath, missing));
      return detail ? w.t('voice.args.missingDetail', { name: missingName, detail }) : w.t('voice.args.missing', { name: missingName });
    }
    case 'type':
      return w.t('voice.args.type', { name, expected: w.must(params.type), actual: w.value(valueAt(args, error.instancePath)) });
    case 'enum':
      return w.t('voice.args.enum', {
        name,
        values: (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(w.t('voice.words.list')),
        actual: actual(),
      });
    case 'const':
      return w.t('voice.args.const', { name, value: JSON.stringify(params.allowedValue) });
    case 'additionalProperties':
      return w.t('voice.args.unknown', { name: w.quoted(argumentPath(error.instancePath, String(params.additionalProperty))) });
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return w.t('voice.args.compare', { name, comparison: String(params.comparison), limit: String(params.limit), actual: actual() });
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return w.t(`voice.args.${error.keyword}`, { name, limit: String(params.limit) });
    case 'anyOf':
    case 'oneOf':
      return w.t('voice.args.noForm', { name });
    default:
      return w.t('voice.args.other', { name, message: error.message ?? 'is not valid' });
  }
}

/** What the tool takes, in one line: `city (string, required), days (one of "3d", "7d")`. */
export function expectedArguments(schema: Record<string, unknown>, language: Language = 'en'): string {
  const w = new Words(language);
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.keys(properties);
  if (names.length === 0) return w.t('voice.args.noArguments');
  let text = names
    .map((name) => {
      const property = own(properties, name);
      const kind = Array.isArray(property?.enum)
        ? w.oneOf(property.enum)
        : property?.type !== undefined
          ? Array.isArray(property.type)
            ? property.type.map((t) => w.kind(t)).join(w.t('voice.words.or'))
            : w.kind(property.type)
          : w.t('voice.args.any');
      return w.t(required.has(name) && property?.default === undefined ? 'voice.args.entryRequired' : 'voice.args.entry', { name, kind });
    })
    .join(w.t('voice.words.list'));
  if (text.length > MAX_EXPECTED_CHARS) text = `${text.slice(0, MAX_EXPECTED_CHARS - 1)}…`;
  return text;
}

/** Why a call's arguments were refused, and what the tool takes: the detail of the spoken error. */
export function explainArguments(
  tool: { name: string; inputSchema: Record<string, unknown> },
  errors: ErrorObject[],
  args: unknown,
  language: Language,
): string {
  const w = new Words(language);
  const problems = [...new Set(errors.map((e) => argumentProblem(e, args, tool.inputSchema, language)))].slice(0, MAX_PROBLEMS);
  return [
    w.t('voice.args.header', { tool: tool.name }),
    ...problems.map((p) => `- ${p}`),
    w.t('voice.args.takes', { list: expectedArguments(tool.inputSchema, language) }),
    w.t('voice.args.fix', { tool: tool.name }),
  ].join('\n');
}

/** Why a result's structured content was refused (its first problem). */
export function explainOutput(errors: ErrorObject[] | null | undefined, structured: unknown, language: Language): string {
  const first = errors?.[0];
  const w = new Words(language);
  if (!first) return w.t('voice.args.output', { problem: w.t('voice.args.result') });
  return w.t('voice.args.output', { problem: argumentProblem(first, structured, {}, language) });
}
