import { inlineProperties, isNode } from '../../../shared/schema-refs';
import type { ServedTool } from './tool-pages';

const servedSchemas = new WeakMap<object, ServedTool['inputSchema']>();

/**
 * A tool's input schema as xiaozhi gets it. xiaozhi keeps only type, properties and required;
 * sending more costs bytes for nothing, so the definitions are not sent and what the properties
 * refer to is copied into them. Computed once per schema object (every set shares the servers' tools).
 */
export function servedSchema(schema: Record<string, unknown>): ServedTool['inputSchema'] {
  let out = servedSchemas.get(schema);
  if (out) return out;
  out = { type: 'object' };
  if (isNode(schema.properties)) out.properties = inlineProperties(schema, schema.properties);
  if (Array.isArray(schema.required) && schema.required.length > 0) out.required = schema.required as string[];
  servedSchemas.set(schema, out);
  return out;
}
