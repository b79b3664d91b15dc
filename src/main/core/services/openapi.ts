import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { load as loadYaml } from 'js-yaml';
import type { z } from 'zod';
import { problem, type ProblemCode } from '../../../shared/problem';
import { isNode, resolveLocalRef } from '../../../shared/schema-refs';
import { closest } from '../../../shared/suggest';
import type { OpenApiSettingsSchema } from '../../../shared/settings';
import { isRecord } from '../../../shared/is-record';
import { expandedSize } from './document-size';
import { joinUrl, MAX_ANSWER_BYTES, spoken } from './service-http';
import { ServiceError } from './service-problems';
import { pathSegment, shapedAnswer, textAnswer, type ServiceContext, type ServiceTool } from './service-tools';

type OpenApiSettings = z.output<typeof OpenApiSettingsSchema>;
type Node = Record<string, unknown>;

/** Operations served from one document at most (a big API is chosen from, not served whole). */
const MAX_OPERATIONS = 100;
/** Schemas copied into one tool's `$defs` at most (a definition graph that never ends). */
const MAX_DEFS = 200;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** Values in a document once its YAML aliases are expanded (a 2 KB "billion laughs" is 2^25 objects). */
export const MAX_DOCUMENT_VALUES = 1_000_000;
/** Values copied into one tool's schema, `$defs` included; past it, the operation is left out. */
const MAX_SCHEMA_VALUES = 10_000;
/** Characters of one tool's schema (xiaozhi reads a tool list in pages of 8 KB). */
const MAX_SCHEMA_CHARS = 64 * 1024;

/** An operation whose arguments' schema is past the bounds. */
class SchemaTooLarge extends Error {}

/**
 * An OpenAPI 3.0/3.1 document (JSON or YAML, from a URL or a file) as tools: one per operation
 * (named by its `operationId`), arguments from its parameters (path, query, header) and its JSON
 * request body (`$ref`s resolved within the document: a body schema's properties become arguments
 * when none clashes, else one `body` argument), the base URL from `servers` (or the settings), and
 * the credentials given for its security schemes (bearer, basic, API key in a header or the query).
 */
export async function openApiTools(settings: OpenApiSettings, context: ServiceContext): Promise<ServiceTool[]> {
  const platform = context.http.platform;
  const setup = (code: ProblemCode, params: Record<string, string> = {}) => new ServiceError(problem(code, { platform, ...params }));
  const { doc, from } = await readSpec(settings.spec, context);
  if (!isRecord(doc) || typeof doc.openapi !== 'string' || !/^3\./.test(doc.openapi)) throw setup('service.setup.notOpenApi');
  const base = settings.baseUrl ?? serverUrl(doc, from);
  if (!base) throw setup('service.setup.noServer');
  const wanted = settings.operations ? new Set(settings.operations) : undefined;
  const schemes = isRecord(doc.components) && isRecord(doc.components.securitySchemes) ? Object.keys(doc.components.securitySchemes) : [];
  for (const name of Object.keys(settings.credentials))
    if (!schemes.includes(name)) {
      // Else never sent, and every call fails with a 401 that does not say why.
      const near = closest(name, schemes);
      throw setup('service.setup.noScheme', { name, schemes: schemes.slice(0, 10).join(', '), ...(near ? { near } : {}) });
    }
  const tools: (ServiceTool & { operationId: string })[] = [];
  const tooLarge: string[] = [];
  const ids: string[] = [];
  const names = new Set<string>();
  let found = 0;
  const paths = isRecord(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const id = typeof op.operationId === 'string' && op.operationId ? op.operationId : `${method}_${path}`;
      ids.push(id);
      if (wanted && !wanted.has(id)) continue;
      if (++found > MAX_OPERATIONS) continue;
      const name = uniqueName(toolName(id, method, path), names);
      try {
        tools.push(operationTool(doc, { path, method, id, name, op, shared: item.parameters }, base, settings, context));
      } catch (error) {
        if (!(error instanceof SchemaTooLarge)) throw error;
        tooLarge.push(id);
      }
    }
  }
  if (found > MAX_OPERATIONS)
    context.log.warn(
      `${settings.spec} has ${found} operations; the first ${MAX_OPERATIONS} are served: list the ones you want in "operations"`,
    );
  if (tooLarge.length > 0)
    context.log.warn(
      `${tooLarge.length} operation(s) of ${settings.spec} are left out: their arguments' schema is too large (${tooLarge.slice(0, 5).join(', ')})`,
    );
  if (wanted) {
    const served = new Set(tools.map((t) => t.operationId));
    const missing = [...wanted].filter((id) => !served.has(id) && !tooLarge.includes(id));
    if (missing.length > 0) {
      const one = missing.length === 1 ? (missing[0] as string) : undefined;
      const near = one && (ids.find((id) => id.toLowerCase().startsWith(one.toLowerCase())) ?? closest(one, ids));
      throw setup('service.setup.noOperation', { names: missing.slice(0, 5).join(', '), ...(near ? { near } : {}) });
    }
  }
  return tools;
}

interface Operation {
  path: string;
  method: string;
  id: string;
  /** The tool's name: from the id, else (an id in Chinese, say) from the method and path. */
  name: string;
  op: Node;
  shared: unknown;
}

/** Where each argument goes. */
interface Placement {
  in: 'path' | 'query' | 'header' | 'body' | 'bodyField';
  name: string;
}

function operationTool(
  doc: Node,
  o: Operation,
  base: string,
  settings: OpenApiSettings,
  context: ServiceContext,
): ServiceTool & { operationId: string } {
  const defs = new Defs(doc);
  const properties: Record<string, object> = {};
  const required: string[] = [];
  const placements = new Map<string, Placement>();
  const params = [...(Array.isArray(o.shared) ? o.shared : []), ...(Array.isArray(o.op.parameters) ? o.op.parameters : [])];
  for (const raw of params) {
    const param = deref(doc, raw);
    if (!isRecord(param) || typeof param.name !== 'string') continue;
    const where = param.in;
    if (where !== 'path' && where !== 'query' && where !== 'header') continue;
    const schema = defs.copy(isRecord(param.schema) ? param.schema : { type: 'string' });
    properties[param.name] = typeof param.description === 'string' ? { ...schema, description: param.description } : schema;
    placements.set(param.name, { in: where, name: param.name });
    if (param.required === true || where === 'path') required.push(param.name);
  }
  const body = deref(doc, o.op.requestBody);
  const content = isRecord(body) && isRecord(body.content) ? body.content : {};
  const json = Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
  if (isRecord(json) && isRecord(json.schema)) {
    const target = deref(doc, json.schema);
    const fields = isRecord(target) && isRecord(target.properties) ? target.properties : undefined;
    if (fields && Object.keys(fields).every((name) => !placements.has(name))) {
      // The body's own fields as arguments: what a spoken request names ("add a pet called Rex").
      for (const [name, schema] of Object.entries(fields)) {
        properties[name] = defs.copy(isRecord(schema) ? schema : {});
        placements.set(name, { in: 'bodyField', name });
      }
      if (Array.isArray((target as Node).required))
        for (const name of (target as Node).required as unknown[]) if (typeof name === 'string') required.push(name);
    } else {
      properties.body = defs.copy(json.schema);
      placements.set('body', { in: 'body', name: 'body' });
      if (isRecord(body) && body.required === true) required.push('body');
    }
  }
  const inputSchema: Tool['inputSchema'] = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required: [...new Set(required)] } : {}),
    ...defs.section(),
  };
  if (JSON.stringify(inputSchema).length > MAX_SCHEMA_CHARS) throw new SchemaTooLarge();
  const description = [o.op.summary, o.op.description].find((s) => typeof s === 'string' && s.trim()) as string | undefined;
  const security = (Array.isArray(o.op.security) ? o.op.security : Array.isArray(doc.security) ? doc.security : []) as unknown[];
  return {
    operationId: o.id,
    tool: { name: o.name, description: (description ?? `${o.method.toUpperCase()} ${o.path}`).slice(0, 1000), inputSchema },
    call: async (args, options) => {
      const segment = pathSegment(context.http.platform);
      const path = o.path.replace(/\{([^{}]+)\}/g, (_w, name: string) => segment(spoken(args[name]), name));
      const url = new URL(joinUrl(base, path));
      const headers: Record<string, string> = {};
      let payload: unknown;
      const fields: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(args)) {
        const place = placements.get(name);
        if (!place || value === undefined) continue;
        if (place.in === 'query') {
          for (const item of Array.isArray(value) ? value : [value])
            url.searchParams.append(name, typeof item === 'string' ? item : JSON.stringify(item));
        } else if (place.in === 'header') headers[name] = typeof value === 'string' ? value : JSON.stringify(value);
        else if (place.in === 'body') payload = value;
        else if (place.in === 'bodyField') fields[name] = value;
      }
      if (Object.keys(fields).length > 0) payload = fields;
      applySecurity(doc, security, settings.credentials, headers, url);
      const answer = await context.http.send({ method: o.method.toUpperCase(), url: url.toString(), headers, body: payload }, options);
      // An empty answer (204) still tells the model it worked.
      return textAnswer(shapedAnswer(answer, undefined) || context.say('voice.service.done'));
    },
  };
}

/**
 * An operationId as a name xiaozhi can call (other characters become _, at most 64). An id that
 * is not ASCII (查询宠物) would lose every character: the method and path name it instead (get_a).
 */
function toolName(id: string, method: string, path: string): string {
  const clean = (text: string) =>
    text
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 64);
  return (/[^\x00-\x7f]/.test(id) ? '' : clean(id)) || clean(`${method}${path}`) || 'operation';
}

/** A name not yet taken in this document: a second one gets _2, then _3. */
function uniqueName(name: string, taken: Set<string>): string {
  let unique = name;
  for (let n = 2; taken.has(unique); n++) unique = `${name.slice(0, 60)}_${n}`;
  taken.add(unique);
  return unique;
}

/** The first security requirement whose every scheme has a credential, applied to the request. */
function applySecurity(
  doc: Node,
  security: unknown[],
  credentials: Record<string, string>,
  headers: Record<string, string>,
  url: URL,
): void {
  const schemes = isRecord(doc.components) && isRecord(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  for (const requirement of security) {
    if (!isRecord(requirement)) continue;
    const names = Object.keys(requirement);
    if (!names.every((name) => credentials[name] !== undefined)) continue;
    for (const name of names) {
      const scheme = deref(doc, schemes[name]);
      const secret = credentials[name] as string;
      if (!isRecord(scheme)) continue;
      if (scheme.type === 'apiKey' && typeof scheme.name === 'string') {
        if (scheme.in === 'query') url.searchParams.set(scheme.name, secret);
        else if (scheme.in === 'cookie') headers.cookie = `${scheme.name}=${secret}`;
        else headers[scheme.name] = secret;
      } else if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic')
        headers.authorization = `Basic ${Buffer.from(secret).toString('base64')}`;
      else headers.authorization = `Bearer ${secret}`;
    }
    return;
  }
}

/** `servers[0].url` with its variables' defaults, resolved against where the document came from. */
function serverUrl(doc: Node, from: string | undefined): string | undefined {
  const server = Array.isArray(doc.servers) ? doc.servers[0] : undefined;
  if (!isRecord(server) || typeof server.url !== 'string') return from ? new URL('/', from).toString() : undefined;
  const variables = isRecord(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^{}]+)\}/g, (_w, name: string) => {
    const variable = variables[name];
    return isRecord(variable) && typeof variable.default === 'string' ? variable.default : '';
  });
  try {
    return new URL(url, from).toString();
  } catch {
    return undefined;
  }
}

/** The value a `$ref` points at within the document (a chain of them followed, a few deep); anything else as it is. */
function deref(doc: Node, value: unknown): unknown {
  let at = value;
  for (let hops = 0; hops < 8 && isRecord(at) && typeof at.$ref === 'string'; hops++) at = resolveLocalRef(doc, at.$ref);
  return at;
}

/**
 * The component schemas a tool's schema uses, copied into its own `$defs` (references rewritten to
 * `#/$defs/Name`), so the schema stands alone: the hub serves it self-contained and checks
 * arguments against it like any MCP tool's.
 */
class Defs {
  private readonly defs: Record<string, unknown> = {};
  private count = 0;
  private values = 0;

  constructor(private readonly doc: Node) {}

  copy(schema: Node): Record<string, unknown> {
    return this.rewrite(schema, 0) as Record<string, unknown>;
  }

  section(): { $defs?: Record<string, unknown> } {
    return this.count > 0 ? { $defs: this.defs } : {};
  }

  private rewrite(value: unknown, depth: number): unknown {
    if (depth > 64) return {};
    // Shared values (YAML aliases) are copied each time they are used: the copy is what is bounded.
    if (++this.values > MAX_SCHEMA_VALUES) throw new SchemaTooLarge();
    if (Array.isArray(value)) return value.map((item) => this.rewrite(item, depth + 1));
    if (!isNode(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') out.$ref = this.ref(child);
      else out[key] = this.rewrite(child, depth + 1);
    }
    return out;
  }

  private ref(ref: string): string {
    const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (!match) return ref;
    const name = match[1] as string;
    if (!(name in this.defs) && this.count < MAX_DEFS) {
      this.count++;
      this.defs[name] = {};
      const target = resolveLocalRef(this.doc, ref);
      this.defs[name] = this.rewrite(isRecord(target) ? target : {}, 0);
    }
    return `#/$defs/${name}`;
  }
}

/** The document as parsed, and its URL when it came from one (relative server URLs are read against it). */
async function readSpec(spec: string, context: ServiceContext): Promise<{ doc: unknown; from?: string }> {
  const platform = context.http.platform;
  let text: string;
  let from: string | undefined;
  if (/^https?:\/\//i.test(spec)) {
    text = (await context.http.send({ method: 'GET', url: spec, anySite: true }, { timeoutMs: context.timeoutMs })).text;
    from = spec;
  } else {
    // Relative to the config file, as written there: not to wherever the app was started (a service, systemd).
    const file = path.resolve(context.configDir ?? process.cwd(), spec);
    try {
      if ((await stat(file)).size > MAX_ANSWER_BYTES) throw new Error('the file is larger than 8 MB');
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new ServiceError(problem('service.setup.noFile', { platform, file }));
      const reason = code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
      throw new ServiceError(problem('service.setup.cannotRead', { platform, file, reason }));
    }
  }
  let doc: unknown;
  try {
    doc = /^\s*[{[]/.test(text) ? (JSON.parse(text) as unknown) : loadYaml(text, { json: true });
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0] ?? '';
    throw new ServiceError(problem('service.setup.notParsed', { platform, reason }));
  }
  // Checked before anything walks it: every later step (schemas, the window, the log) would expand it.
  if (expandedSize(doc, MAX_DOCUMENT_VALUES) > MAX_DOCUMENT_VALUES)
    throw new ServiceError(problem('service.setup.tooLarge', { platform, spec, values: MAX_DOCUMENT_VALUES }));
  return { doc, ...(from ? { from } : {}) };
}
