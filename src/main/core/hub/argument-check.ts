import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020';

import { type Language, translate } from '../../../shared/i18n/translate';
import { own } from '../../../shared/own';
import { DATA_KEYS, isNode, MAP_KEYS, resolveLocalRef } from '../../../shared/schema-refs';
import type { Logger } from '../logs/log-book';
import { servedSchema } from '../servers/served-schema';
import { explainArguments, explainOutput } from './argument-words';

/**
 * Checks a call's arguments against the tool's input schema before the call leaves the bridge,
 * so a model that sent the wrong thing hears at once, in plain words, what to fix (instead of a
 * server's stack trace, or a wrong answer). Each schema is compiled the first time its tool is
 * called and kept as long as the server keeps that tool; a schema that does not compile is
 * reported once and not enforced (some servers publish broken schemas; their tools still work).
 * Regular expressions (`pattern`, `patternProperties`) and `format`s are left to the server.
 */

type Validator = ValidateFunction | 'broken';

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

  /** Undefined when the arguments fit the schema; otherwise the text to answer the model with, in its language. */
  check(tool: CheckedTool, args: Record<string, unknown>, language: Language = 'en'): string | undefined {
    const validate = this.validator(tool);
    if (validate === 'broken' || validate(args)) return undefined;
    // Explained with references resolved, so an argument defined by a `$ref` says what it takes.
    return explainArguments({ ...tool, inputSchema: servedSchema(tool.inputSchema) }, validate.errors ?? [], args, language);
  }

  /**
   * A result's structured content against the tool's output schema, as the SDK's client checks it
   * (the relay reads results below the SDK): undefined when it fits (or the schema is broken).
   */
  checkOutput(
    tool: { name: string; server: string; outputSchema: Record<string, unknown> },
    structured: unknown,
    language: Language = 'en',
  ): string | undefined {
    if (structured === undefined) return translate(language, 'voice.args.noOutput');
    const validate = this.validator({ name: tool.name, server: tool.server, inputSchema: tool.outputSchema });
    if (validate === 'broken' || validate(structured)) return undefined;
    return explainOutput(validate.errors, structured, language);
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
