import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020';
import type { Logger } from '../logs/log-book';
import { DATA_KEYS, MAP_KEYS, isNode, resolveLocalRef } from '../../../shared/schema-refs';
import { servedSchema } from './served-schema';
import { own } from '../../../shared/own';

/**
 * Checks a call's arguments against the tool's input schema before the call leaves the bridge,
 * so a model that sent the wrong thing hears at once, in plain words, what to fix (instead of a
 * server's stack trace, or a wrong answer). Each schema is compiled the first time its tool is
 * called and kept as long as the server keeps that tool; a schema that does not compile is
 * reported once and not enforced (some servers publish broken schemas; their tools still work).
 * Regular expressions (`pattern`, `patternProperties`) and `format`s are left to the server.
 */

type Validator = ValidateFunction | 'broken';

const MAX_PROBLEMS = 5;
const MAX_EXPECTED_CHARS = 600;

interface Property {
  type?: unknown;
  default?: unknown;
  description?: unknown;
  enum?: unknown;
}

export interface CheckedTool {
  /** The exposed name (what the model called). */
  name: string;
  server: string;
  inputSchema: Record<string, unknown>;
}

export class ArgumentCheck {
  /** Keyed by the schema object a server listed: a new tool list brings new objects. */
  private readonly validators = new WeakMap<object, Validator>();
  private readonly reported = new Set<string>();
  private draft7: Ajv | undefined;
  private draft2020: Ajv2020 | undefined;

  constructor(private readonly log: Logger) {}

  /** Undefined when the arguments fit the schema; otherwise the text to answer the model with. */
  check(tool: CheckedTool, args: Record<string, unknown>): string | undefined {
    const validate = this.validator(tool);
    if (validate === 'broken' || validate(args)) return undefined;
    // Explained with references resolved, so an argument defined by a `$ref` says what it takes.
    return explain({ ...tool, inputSchema: servedSchema(tool.inputSchema) }, validate.errors ?? [], args);
  }

  /**
   * A result's structured content against the tool's output schema, as the SDK's client checks it
   * (the relay reads results below the SDK): undefined when it fits (or the schema is broken).
   */
  checkOutput(tool: { name: string; server: string; outputSchema: Record<string, unknown> }, structured: unknown): string | undefined {
    if (structured === undefined) return 'it has an output schema but returned no structured content';
    const validate = this.validator({ name: tool.name, server: tool.server, inputSchema: tool.outputSchema });
    if (validate === 'broken' || validate(structured)) return undefined;
    const first = validate.errors?.[0];
    return `its structured content does not match its output schema${first ? ` (${argumentPath(first.instancePath) || 'the result'} ${first.message ?? 'is wrong'})` : ''}`;
  }

  private validator(tool: CheckedTool): Validator {
    const schema = tool.inputSchema;
    const known = this.validators.get(schema);
    if (known) return known;
    let validator: Validator;
    try {
      validator = this.compile(schema);
    } catch (error) {
      validator = 'broken';
      const key = `${tool.server}\u0000${tool.name}`;
      if (!this.reported.has(key)) {
        this.reported.add(key);
        this.log.warn(
          `the input schema of tool "${tool.name}" (server "${tool.server}") is not valid JSON Schema, so its arguments are not checked: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    this.validators.set(schema, validator);
    return validator;
  }

  private compile(schema: Record<string, unknown>): ValidateFunction {
    const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
    // Servers name all sorts of dialects (or none); compile the draft they name where we can.
    // Required at the first check: a bridge that is never called needs none of ajv in memory.
    const ajv = /2019-09|2020-12/.test(dialect)
      ? (this.draft2020 ??= new (require('ajv/dist/2020') as { default: typeof Ajv2020 }).default(OPTIONS))
      : (this.draft7 ??= new (require('ajv') as { default: typeof Ajv }).default(OPTIONS));
    const { $schema: _ignored, ...rest } = schema;
    const copy = withoutPatterns(defaultsOptional({ type: 'object', ...rest }));
    const validate = ajv.compile(copy);
    // Ajv keeps every compiled schema; the WeakMap above is the cache that may forget.
    ajv.removeSchema(copy);
    return validate;
  }
}

type Node = Record<string, unknown>;
/** Nesting the rewrite below follows; the tool list leaves out schemas deeper than this. */
const MAX_WALK_DEPTH = 64;

/** True when the property schema (or the definition it refers to) gives a default. */
function hasDefault(property: unknown, root: Node): boolean {
  let schema = property;
  for (let hops = 0; hops < 8 && isNode(schema); hops++) {
    if (Object.prototype.hasOwnProperty.call(schema, 'default')) return true;
    if (typeof schema.$ref !== 'string') return false;
    schema = resolveLocalRef(root, schema.$ref);
  }
  return false;
}

/**
 * The schema with `visit` applied to every subschema, innermost first (`visit` answers the node, or
 * a changed copy). The same objects where nothing changes.
 */
function rewriteSchema(schema: Node, visit: (node: Node) => Node, depth = 0, map = false): Node {
  if (depth > MAX_WALK_DEPTH) return schema;
  let out: Node | undefined;
  for (const [key, child] of Object.entries(schema)) {
    if ((!map && DATA_KEYS.has(key)) || typeof child !== 'object' || child === null) continue;
    const next = Array.isArray(child)
      ? child.map((item) => (isNode(item) ? rewriteSchema(item, visit, depth + 1) : item))
      : rewriteSchema(child as Node, visit, depth + 1, !map && MAP_KEYS.has(key));
    if (Array.isArray(child) ? (next as unknown[]).some((item, i) => item !== child[i]) : next !== child)
      // A computed key in a literal is an own property, even `__proto__` (an assignment would set the prototype).
      out = { ...(out ?? schema), [key]: next };
  }
  return map ? (out ?? schema) : visit(out ?? schema);
}

/**
 * The schema as the check reads it: a field that is required but has a default is optional, as
 * the server treats it (@playwright/mcp, mcp-framework servers list such fields). The arguments
 * are not touched: the server gets what the model sent and fills in its own default.
 */
export function defaultsOptional(schema: Node, root: Node = schema): Node {
  return rewriteSchema(schema, (node) => {
    const properties = node.properties;
    if (!Array.isArray(node.required) || !isNode(properties)) return node;
    const required = (node.required as unknown[]).filter((name) => !(typeof name === 'string' && hasDefault(own(properties, name), root)));
    return required.length === node.required.length ? node : { ...node, required };
  });
}

/**
 * The schema without its regular expressions: JavaScript's RegExp backtracks, and a server's
 * pattern such as "^(a+)+$" against 40 a's and a "!" runs for days in the bridge's one thread.
 * Patterns are left to the server, which checks its own anyway. Keys matched by
 * `patternProperties` cannot be told from unknown ones without them, so `additionalProperties`
 * (and `unevaluatedProperties`) beside them go too: never stricter than the server.
 */
export function withoutPatterns(schema: Node): Node {
  return rewriteSchema(schema, (node) => {
    const hasPattern = typeof node.pattern === 'string';
    const hasPatternProperties = node.patternProperties !== undefined;
    if (!hasPattern && !hasPatternProperties) return node;
    const { pattern: _pattern, ...rest } = node;
    if (!hasPatternProperties) return rest;
    const { patternProperties: _map, additionalProperties: _more, unevaluatedProperties: _unevaluated, ...left } = rest;
    return left;
  });
}

const OPTIONS = { allErrors: true, strict: false, validateFormats: false, allowUnionTypes: true, logger: false } as const;

/** `/stops/0/station` → `stops[0].station` */
function argumentPath(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function typeWords(type: unknown): string {
  const one = (t: string) =>
    ({
      string: 'a string',
      number: 'a number',
      integer: 'a whole number (integer)',
      boolean: 'true or false',
      object: 'an object',
      array: 'an array',
      null: 'null',
    })[t] ?? t;
  if (Array.isArray(type)) return type.map((t) => one(String(t))).join(' or ');
  return one(String(type));
}

/**
 * A value as the model sent it, cut short; an object or array only by its kind (it may be huge, or
 * nested too deep to stringify).
 */
function shortValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  const shown =
    typeof value === 'string' ? JSON.stringify(value.length > 40 ? value.slice(0, 40) : value) : (JSON.stringify(value) ?? String(value));
  return shown.length > 40 ? `${shown.slice(0, 39)}…` : shown;
}

function valueWords(value: unknown): string {
  if (value === null) return 'null';
  const kind = typeof value;
  if (kind === 'object') return shortValue(value);
  return `${kind === 'string' ? 'a string' : kind === 'number' ? 'a number' : kind === 'boolean' ? 'a boolean' : kind} (${shortValue(value)})`;
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

function describeProperty(property: Property | undefined): string {
  if (!property) return '';
  const parts: string[] = [];
  if (Array.isArray(property.enum)) parts.push(`one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  else if (property.type !== undefined) parts.push(Array.isArray(property.type) ? property.type.join(' | ') : String(property.type));
  if (typeof property.description === 'string' && property.description)
    parts.push(property.description.length > 80 ? `${property.description.slice(0, 79)}…` : property.description);
  return parts.join(': ');
}

function problem(error: ErrorObject, args: unknown, schema: Record<string, unknown>): string {
  const params = error.params as Record<string, unknown>;
  const at = argumentPath(error.instancePath);
  const name = at ? `"${at}"` : 'the arguments';
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const property = error.instancePath === '' ? own(schema.properties as Record<string, Property> | undefined, missing) : undefined;
      const detail = describeProperty(property);
      return `missing required argument "${argumentPath(error.instancePath, missing)}"${detail ? ` (${detail})` : ''}`;
    }
    case 'type':
      return `${name} must be ${typeWords(params.type)}, not ${valueWords(valueAt(args, error.instancePath))}`;
    case 'enum':
      return `${name} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, not ${shortValue(valueAt(args, error.instancePath))}`;
    case 'const':
      return `${name} must be ${JSON.stringify(params.allowedValue)}`;
    case 'additionalProperties':
      return `unknown argument "${argumentPath(error.instancePath, String(params.additionalProperty))}"`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${name} must be ${String(params.comparison)} ${String(params.limit)}, not ${shortValue(valueAt(args, error.instancePath))}`;
    case 'minLength':
      return `${name} must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `${name} must be at most ${String(params.limit)} characters long`;
    case 'minItems':
      return `${name} must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `${name} must have at most ${String(params.limit)} items`;
    case 'anyOf':
    case 'oneOf':
      return `${name} does not match any allowed form`;
    default:
      return `${name} ${error.message ?? 'is not valid'}`;
  }
}

/** What the tool takes, in one line: `city (string, required), days (one of "3d", "7d")`. */
export function expectedArguments(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.keys(properties);
  if (names.length === 0) return 'no arguments';
  let text = names
    .map((name) => {
      const property = own(properties, name);
      const kind = Array.isArray(property?.enum)
        ? `one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`
        : property?.type !== undefined
          ? String(property.type)
          : 'any';
      return `${name} (${kind}${required.has(name) && property?.default === undefined ? ', required' : ''})`;
    })
    .join(', ');
  if (text.length > MAX_EXPECTED_CHARS) text = `${text.slice(0, MAX_EXPECTED_CHARS - 1)}…`;
  return text;
}

function explain(tool: CheckedTool, errors: ErrorObject[], args: unknown): string {
  const problems = [...new Set(errors.map((e) => problem(e, args, tool.inputSchema)))].slice(0, MAX_PROBLEMS);
  return [
    `The arguments for "${tool.name}" are not valid, so it was not called:`,
    ...problems.map((p) => `- ${p}`),
    `It takes: ${expectedArguments(tool.inputSchema)}.`,
    `Fix the arguments and call "${tool.name}" again.`,
  ].join('\n');
}
