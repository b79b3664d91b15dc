import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

import { load as loadYaml } from 'js-yaml';

import { isRecord } from '../../../shared/is-record';
import type { OpenApiOutline } from '../../../shared/openapi-selection';
import { problem } from '../../../shared/problem';
import { resolveLocalRef } from '../../../shared/schema-refs';
import { expandedSize } from './document-size';
import type { ServiceHttp } from './service-http';
import { ServiceError } from './service-problems';

type Node = Record<string, unknown>;

/**
 * The largest OpenAPI document read: GitHub's (13 MB) and GitHub Enterprise Cloud's (14 MB) with room
 * to spare; past it a document is refused before it is read (a dereferenced one, 70 MB, is the same
 * API written out many times over).
 */
export const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;
/** Values in a YAML document once its aliases are expanded (a 2 KB "billion laughs" is 2^25 objects). */
export const MAX_DOCUMENT_VALUES = 1_000_000;
export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** One operation of a document, as listed and chosen from (the window's list, the served description). */
export interface OperationInfo {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tags: string[];
}

/** The document as parsed, and its URL when it came from one (relative server URLs are read against it). */
export interface OpenApiDocument {
  doc: Node;
  from?: string;
}

/**
 * An OpenAPI 3 document (JSON or YAML, from an http(s) URL or a file; a relative path from the config
 * file's folder), at most MAX_DOCUMENT_BYTES. A document that can never be used (too large, neither
 * JSON nor YAML, not OpenAPI 3, a YAML alias bomb) is a setup problem: no retry fixes it.
 */
export async function readOpenApi(
  spec: string,
  context: { http: ServiceHttp; timeoutMs: number; configDir?: string | undefined },
): Promise<OpenApiDocument> {
  const platform = context.http.platform;
  const megabytes = MAX_DOCUMENT_BYTES / 1048576;
  const tooBig = () => new ServiceError(problem('service.setup.documentTooBig', { platform, spec, megabytes }));
  let text: string;
  let from: string | undefined;
  if (/^https?:\/\//i.test(spec)) {
    try {
      text = (
        await context.http.send({ method: 'GET', url: spec, anySite: true, maxBytes: MAX_DOCUMENT_BYTES }, { timeoutMs: context.timeoutMs })
      ).text;
    } catch (error) {
      if (error instanceof ServiceError && error.problem.code === 'service.tooBig') throw tooBig();
      throw error;
    }
    from = spec;
  } else {
    // Relative to the config file, as written there: not to wherever the app was started (a service, systemd).
    const file = path.resolve(context.configDir ?? process.cwd(), spec);
    try {
      if ((await stat(file)).size > MAX_DOCUMENT_BYTES) throw tooBig();
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new ServiceError(problem('service.setup.noFile', { platform, file }));
      const reason = code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
      throw new ServiceError(problem('service.setup.cannotRead', { platform, file, reason }));
    }
  }
  const json = /^\s*[{[]/.test(text);
  let doc: unknown;
  try {
    doc = json ? (JSON.parse(text) as unknown) : loadYaml(text, { json: true });
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0] ?? '';
    throw new ServiceError(problem('service.setup.notParsed', { platform, reason }));
  }
  // JSON has no shared values: its size is its bytes'. A YAML alias is one shared object after parsing, and only an
  // expanding walk (copying schemas, serialising) explodes: checked before anything walks it.
  if (!json && expandedSize(doc, MAX_DOCUMENT_VALUES) > MAX_DOCUMENT_VALUES)
    throw new ServiceError(problem('service.setup.tooLarge', { platform, spec, values: MAX_DOCUMENT_VALUES }));
  if (!isRecord(doc) || typeof doc.openapi !== 'string' || !/^3\./.test(doc.openapi))
    throw new ServiceError(problem('service.setup.notOpenApi', { platform }));
  return { doc, ...(from ? { from } : {}) };
}

/** The value a `$ref` points at within the document (a chain of them followed, a few deep); anything else as it is. */
export function deref(doc: Node, value: unknown): unknown {
  let at = value;
  for (let hops = 0; hops < 8 && isRecord(at) && typeof at.$ref === 'string'; hops++) at = resolveLocalRef(doc, at.$ref);
  return at;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');

/** Every operation of the document, in its order (an operation without an operationId is named by its method and path). */
export function operationsOf(doc: Node): (OperationInfo & { op: Node; shared: unknown })[] {
  const found: (OperationInfo & { op: Node; shared: unknown })[] = [];
  const paths = isRecord(doc.paths) ? doc.paths : {};
  for (const [where, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      found.push({
        id: typeof op.operationId === 'string' && op.operationId ? op.operationId : `${method}_${where}`,
        method,
        path: where,
        summary: text(op.summary),
        description: text(op.description),
        tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [],
        op,
        shared: item.parameters,
      });
    }
  }
  return found;
}

/** Characters of an operation's summary and description sent to the window (a list, not the documentation). */
const OUTLINE_TEXT = 160;
/** Operations listed to the window at most. */
const OUTLINE_OPERATIONS = 5000;

export function outlineOf(doc: Node): OpenApiOutline {
  const info = isRecord(doc.info) ? doc.info : {};
  const first = Array.isArray(doc.servers) ? doc.servers[0] : undefined;
  const server = isRecord(first) && typeof first.url === 'string' ? first.url : undefined;
  const clip = (value: string) => (value.length > OUTLINE_TEXT ? `${value.slice(0, OUTLINE_TEXT - 1)}…` : value);
  const operations = operationsOf(doc)
    .slice(0, OUTLINE_OPERATIONS)
    .map(({ op: _op, shared: _shared, ...o }) => ({ ...o, summary: clip(o.summary), description: clip(o.description) }));
  const tags = (Array.isArray(doc.tags) ? doc.tags : [])
    .filter(isRecord)
    .map((t) => ({ name: text(t.name), description: clip(text(t.description)) }));
  // Tags operations use without declaring them are listed too.
  const named = new Set(tags.map((t) => t.name));
  for (const operation of operations)
    for (const tag of operation.tags)
      if (!named.has(tag)) {
        named.add(tag);
        tags.push({ name: tag, description: '' });
      }
  return {
    title: text(info.title),
    version: text(info.version),
    ...(server ? { server } : {}),
    schemes: isRecord(doc.components) && isRecord(doc.components.securitySchemes) ? Object.keys(doc.components.securitySchemes) : [],
    tags: tags.filter((t) => t.name),
    operations,
  };
}
