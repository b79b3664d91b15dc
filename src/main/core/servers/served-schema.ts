import { inlineProperties, isNode } from '../../../shared/schema-refs';

/** The input schema a tool is served with: what xiaozhi keeps of one. */
export type ServedSchema = {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
};

const servedSchemas = new WeakMap<object, ServedSchema>();

/**
 * A tool's input schema as xiaozhi gets it. xiaozhi keeps only type, properties and required;
 * sending more costs bytes for nothing, so the definitions are not sent and what the properties
 * refer to is copied into them. Computed once per schema object (every set shares the servers' tools).
 */
export function servedSchema(schema: Record<string, unknown>): ServedSchema {
  let out = servedSchemas.get(schema);
  if (out) return out;
  out = { type: 'object' };
  if (isNode(schema.properties)) out.properties = inlineProperties(schema, schema.properties);
  if (Array.isArray(schema.required) && schema.required.length > 0) out.required = schema.required as string[];
  servedSchemas.set(schema, out);
  return out;
}
