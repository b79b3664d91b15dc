import { setOwn } from './own';

/**
 * Local `$ref`s resolved into the schema that uses them. xiaozhi keeps only `type`, `properties`
 * and `required` of a tool's schema, so a property defined by `"$ref": "#/$defs/Address"` (pydantic,
 * fastmcp, zod-to-json-schema) reaches its model pointing at nothing; the window's tool form reads
 * the same properties. Pure (the engine and the renderer both use it). Only what is referenced is
 * copied in, and every expansion is bounded: a definition already being expanded on the same path
 * (a recursive one), too deep a nesting, or a spent budget (of nodes, and of characters copied) is
 * cut with a plain description instead.
 */

type Json = unknown;
type Node = Record<string, Json>;

/** Nesting of the output, counted in objects and arrays: past it, a subschema becomes a description. */
const MAX_DEPTH = 24;
/** Definitions expanded inside one another on one path. */
const MAX_REF_NESTING = 4;
/** Nodes copied in by expansions for one schema (a definition used many times costs each time). */
const EXPANSION_BUDGET = 2_000;
/**
 * Characters of JSON copied in by expansions for one schema: a few nodes may hold long texts (a
 * definition with a 1 MB description used 900 times made 1.6 GB of schema, past what a string can hold).
 */
export const EXPANSION_BYTES = 256 * 1024;
/** A description kept at a cut: the definition's own may be as long as the server likes. */
const CUT_DESCRIPTION_CHARS = 200;

/** Values that are data, not subschemas: a `$ref` key inside them is not a reference. */
export const DATA_KEYS = new Set(['enum', 'const', 'default', 'examples', 'example']);
/** Bookkeeping that means nothing once a definition is copied in. */
const DROPPED_IN_COPY = new Set(['$defs', 'definitions', '$schema', '$id', '$anchor', '$comment']);

export const isNode = (value: Json): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value a local reference (`#`, `#/$defs/A`, `#/definitions/A~1B`) points at in `root`, if any. */
export function resolveLocalRef(root: Node, ref: string): Json | undefined {
  if (!ref.startsWith('#')) return undefined;
  if (ref === '#' || ref === '#/') return root;
  if (!ref.startsWith('#/')) return undefined;
  let value: Json = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
    else if (isNode(value) && Object.prototype.hasOwnProperty.call(value, part)) value = value[part];
    else return undefined;
  }
  return value;
}

/** What a cut subschema is called in its description: its title, or the last part of its reference. */
function refLabel(ref: string, target: Json): string {
  if (isNode(target) && typeof target.title === 'string' && target.title) return target.title;
  const last = ref.split('/').pop() ?? '';
  return last && last !== '#' ? last : 'the whole argument object';
}

/** A subschema not expanded: its type when it says one, and a plain description of why. */
function cut(target: Json, siblings: Node, text: string): Node {
  const out: Node = {};
  const type = isNode(target) ? target.type : undefined;
  if (typeof type === 'string' || Array.isArray(type)) out.type = type;
  const own =
    typeof siblings.description === 'string'
      ? siblings.description
      : isNode(target) && typeof target.description === 'string'
        ? target.description
        : '';
  const short = own.length > CUT_DESCRIPTION_CHARS ? `${own.slice(0, CUT_DESCRIPTION_CHARS - 1)}…` : own;
  out.description = short ? `${short} (${text})` : text;
  return out;
}

/** Keys whose value maps names to subschemas (a map cut short is empty, not a description). */
export const MAP_KEYS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** About how many characters of JSON `value` takes; counting stops once past `limit`. */
export function jsonCharsOver(value: Json, limit: number): number {
  let chars = 0;
  const stack: Json[] = [value];
  while (stack.length > 0 && chars <= limit) {
    const next = stack.pop();
    if (typeof next === 'string') chars += next.length + 2;
    else if (typeof next !== 'object' || next === null) chars += 8;
    else if (Array.isArray(next)) {
      chars += 2 + next.length;
      for (const item of next) stack.push(item);
    } else
      for (const [key, child] of Object.entries(next)) {
        chars += key.length + 4;
        stack.push(child);
      }
  }
  return chars;
}

class Inliner {
  /** Nodes copied in by expansions so far may not pass this; past it, references are cut. */
  private budget = EXPANSION_BUDGET;
  /** Nor may the characters they hold: past this, references are cut too. */
  private bytes = EXPANSION_BYTES;

  constructor(private readonly root: Node) {}

  /**
   * The value with its references expanded; the same object when nothing in it changed. `map` says
   * the value maps names to subschemas; `stack` holds the references being expanded on this path.
   */
  walk(value: Json, depth: number, stack: readonly string[], map = false): Json {
    if (typeof value !== 'object' || value === null) {
      if (stack.length > 0) this.bytes -= typeof value === 'string' ? value.length + 2 : 8;
      return value;
    }
    if (stack.length > 0) this.budget--;
    if (Array.isArray(value)) {
      // Deep enough: keep a list of plain values (a type list, a required list), drop what nests on.
      if (depth >= MAX_DEPTH) return value.every((item) => typeof item !== 'object' || item === null) ? value : [];
      let changed = false;
      const out = value.map((item) => {
        const next = this.walk(item, depth + 1, stack);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : value;
    }
    const node = value as Node;
    if (depth >= MAX_DEPTH) return map ? {} : cut(node, {}, 'nested too deep to show');
    if (!map && typeof node.$ref === 'string') return this.expand(node, depth, stack);
    let changed = false;
    const out: Node = {};
    for (const [key, child] of Object.entries(node)) {
      if (!map && stack.length > 0 && DROPPED_IN_COPY.has(key)) {
        changed = true;
        continue;
      }
      if (stack.length > 0) this.bytes -= key.length + 4;
      const data = !map && DATA_KEYS.has(key);
      if (data && stack.length > 0) this.bytes -= jsonCharsOver(child, Math.max(0, this.bytes));
      const next = data ? child : this.walk(child, depth + 1, stack, !map && MAP_KEYS.has(key));
      if (next !== child) changed = true;
      setOwn(out, key, next);
    }
    // `allOf` of one schema (pydantic's way to give a `$ref` a default or a description) reads as that schema.
    const only = Array.isArray(out.allOf) && out.allOf.length === 1 ? out.allOf[0] : undefined;
    if (!map && isNode(only)) {
      const { allOf: _allOf, ...rest } = out;
      return { ...only, ...rest };
    }
    return changed ? out : node;
  }

  private expand(node: Node, depth: number, stack: readonly string[]): Json {
    const ref = node.$ref as string;
    const { $ref: _ref, ...siblings } = node;
    const target = resolveLocalRef(this.root, ref);
    // Pointing at nothing (or outside this schema): what is said beside the reference is all there is.
    if (!isNode(target)) return this.walk(siblings, depth, stack);
    const label = refLabel(ref, target);
    if (stack.includes(ref) || target === this.root) return cut(target, siblings, `${label}: the same structure again, nested`);
    if (stack.length >= MAX_REF_NESTING || this.budget <= 0 || this.bytes <= 0)
      return cut(target, siblings, `${label}: nested further, not shown`);
    const expanded = this.walk(target, depth, [...stack, ref]);
    const merged: Node = isNode(expanded) ? { ...expanded } : {};
    // What the referring schema says itself (a description, a default) wins over the definition's.
    for (const [key, child] of Object.entries(siblings))
      setOwn(merged, key, DATA_KEYS.has(key) ? child : this.walk(child, depth + 1, stack, MAP_KEYS.has(key)));
    return merged;
  }
}

/**
 * The properties of a tool's input schema with local references expanded, so they read on their
 * own; the same object when there was nothing to expand.
 */
export function inlineProperties(schema: Node, properties: Node): Node {
  const out = new Inliner(schema).walk(properties, 1, [], true);
  return isNode(out) ? out : properties;
}
