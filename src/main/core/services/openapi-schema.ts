import { isRecord } from '../../../shared/is-record';
import { nameRecord, setOwn } from '../../../shared/own';
import { DATA_KEYS, isNode, MAP_KEYS, resolveLocalRef } from '../../../shared/schema-refs';

type Node = Record<string, unknown>;

/** Schemas copied into one tool's `$defs` at most (a definition graph that never ends). */
const MAX_DEFS = 200;
/** Values copied into one tool's schema, `$defs` included; past it, the operation is left out. */
const MAX_SCHEMA_VALUES = 10_000;
/** Keys of a Schema Object that mean nothing to JSON Schema (nor to the model): not copied. */
const DROPPED = new Set(['discriminator', 'xml', 'externalDocs']);

/** An operation whose arguments' schema is past the bounds. */
export class SchemaTooLarge extends Error {}

/** Whether a schema (or the one its `$ref` names) is read-only: OpenAPI's "SHOULD NOT be sent as part of the request". */
export function isReadOnly(doc: Node, schema: unknown): boolean {
  const target = isRecord(schema) && typeof schema.$ref === 'string' ? resolveLocalRef(doc, schema.$ref) : schema;
  return isRecord(target) && target.readOnly === true;
}

/**
 * An OpenAPI 3.0 Schema Object's idioms as the JSON Schema the argument check reads
 * (OAI/OpenAPI-Specification versions/3.0.3.md, Schema Object; 3.1's schemas are JSON Schema
 * already): `nullable: true` adds null to the type (or the enum) beside it; boolean
 * `exclusiveMinimum`/`exclusiveMaximum` (Wright draft 00) become the numbers of draft 6 and later;
 * `example` becomes `examples`; and, in both versions, a request leaves out the properties marked
 * `readOnly` (a required one is required in answers only), and extensions (`x-…`) are not copied.
 */
function asJsonSchema(node: Node, doc: Node, openapi30: boolean): Node {
  // Own properties, whatever the document's names (an assignment of `__proto__` would set the prototype).
  const out: Node = Object.fromEntries(Object.entries(node).filter(([key]) => !key.startsWith('x-') && !DROPPED.has(key)));
  if (openapi30) {
    for (const [exclusive, bound] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (typeof out[exclusive] !== 'boolean') continue;
      if (out[exclusive] === true && typeof out[bound] === 'number') {
        out[exclusive] = out[bound];
        delete out[bound];
      } else delete out[exclusive];
    }
    if ('example' in out) {
      if (!('examples' in out)) out.examples = [out.example];
      delete out.example;
    }
    if (out.nullable === true) {
      if (typeof out.type === 'string') out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    }
    delete out.nullable;
  }
  if (isRecord(out.properties)) {
    const readOnly = Object.entries(out.properties)
      .filter(([, schema]) => isReadOnly(doc, schema))
      .map(([name]) => name);
    if (readOnly.length > 0) {
      out.properties = Object.fromEntries(Object.entries(out.properties).filter(([name]) => !readOnly.includes(name)));
      if (Array.isArray(out.required)) out.required = out.required.filter((name) => !readOnly.includes(String(name)));
    }
  }
  return out;
}

/**
 * The component schemas a tool's schema uses, copied into its own `$defs` (references rewritten to
 * `#/$defs/Name`) and turned into JSON Schema on the way, so the schema stands alone: the hub serves it
 * self-contained and checks arguments against it like any MCP tool's.
 */
export class Defs {
  /** Keyed by the document's schema names: no prototype. */
  private readonly defs = nameRecord<unknown>();
  private count = 0;
  private values = 0;
  private readonly openapi30: boolean;

  constructor(private readonly doc: Node) {
    this.openapi30 = typeof doc.openapi === 'string' && doc.openapi.startsWith('3.0');
  }

  copy(schema: Node): Record<string, unknown> {
    return this.rewrite(schema, 0) as Record<string, unknown>;
  }

  section(): { $defs?: Record<string, unknown> } {
    return this.count > 0 ? { $defs: { ...this.defs } } : {};
  }

  /** A schema (or, `map`, an object of schemas by name: `properties`…, whose keys are names, not keywords). */
  private rewrite(value: unknown, depth: number, map = false): unknown {
    if (depth > 64) return {};
    // Shared values (YAML aliases) are copied each time they are used: the copy is what is bounded.
    if (++this.values > MAX_SCHEMA_VALUES) throw new SchemaTooLarge();
    if (Array.isArray(value)) return value.map((item) => this.rewrite(item, depth + 1));
    if (!isNode(value)) return value;
    const out: Record<string, unknown> = {};
    const node = map ? value : asJsonSchema(value, this.doc, this.openapi30);
    for (const [key, child] of Object.entries(node)) {
      if (!map && key === '$ref' && typeof child === 'string') out.$ref = this.ref(child);
      // Examples, defaults and choices are data, not schemas: copied as they are.
      else if (!map && DATA_KEYS.has(key)) setOwn(out, key, child);
      else setOwn(out, key, this.rewrite(child, depth + 1, !map && MAP_KEYS.has(key)));
    }
    return out;
  }

  private ref(ref: string): string {
    const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (!match) return ref;
    const name = match[1] as string;
    if (!Object.hasOwn(this.defs, name) && this.count < MAX_DEFS) {
      this.count++;
      this.defs[name] = {};
      const target = resolveLocalRef(this.doc, ref);
      this.defs[name] = this.rewrite(isRecord(target) ? target : {}, 0);
    }
    return `#/$defs/${name}`;
  }
}
