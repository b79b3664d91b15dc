import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import { isRecord } from '../../../shared/is-record';
import { hasSelection, isSelected, MAX_OPENAPI_OPERATIONS } from '../../../shared/openapi-selection';
import { type NameRecord, nameRecord, own } from '../../../shared/own';
import { problem, type ProblemCode } from '../../../shared/problem';
import type { OpenApiSettingsSchema } from '../../../shared/settings';
import { closest } from '../../../shared/suggest';
import { deref, type OperationInfo, operationsOf, readOpenApi } from './openapi-document';
import { Defs, isReadOnly, SchemaTooLarge } from './openapi-schema';
import { joinUrl, spoken } from './service-http';
import { ServiceError } from './service-problems';
import { pathSegment, type ServiceContext, type ServiceTool, shapedAnswer, textAnswer } from './service-tools';

type OpenApiSettings = z.output<typeof OpenApiSettingsSchema>;
type Node = Record<string, unknown>;

/** Characters of one tool's schema (xiaozhi reads a tool list in pages of 8 KB). */
const MAX_SCHEMA_CHARS = 64 * 1024;
/** Characters of an operation's description served after its summary (the documentation is not read aloud). */
const MAX_DESCRIPTION = 300;

/**
 * An OpenAPI 3.0/3.1 document (JSON or YAML, from a URL or a file, up to 32 MB) as tools: one per
 * operation chosen (by operationId, tag or path; none chosen: every one, up to 100), named by its
 * `operationId`, its summary, description and tags its description; arguments from its parameters
 * (path, query, header) and its JSON request body (`$ref`s copied in, 3.0's idioms made JSON Schema:
 * a body schema's properties become arguments when none clashes, else one `body` argument); calls
 * go to `servers[0]` (or the settings' base URL) with the settings' headers and the credentials given
 * for its security schemes (bearer, basic, API key in a header, the query or a cookie). Only what the
 * chosen tools need is kept once they are built: a 13 MB document is read, not held.
 */
export async function openApiTools(settings: OpenApiSettings, context: ServiceContext): Promise<ServiceTool[]> {
  const platform = context.http.platform;
  const setup = (code: ProblemCode, params: Record<string, string> = {}) => new ServiceError(problem(code, { platform, ...params }));
  const { doc, from } = await readOpenApi(settings.spec, context);
  const base = settings.baseUrl ?? serverUrl(doc, from);
  if (!base) throw setup('service.setup.noServer');
  const schemes = isRecord(doc.components) && isRecord(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const schemeNames = Object.keys(schemes);
  for (const name of Object.keys(settings.credentials))
    if (!schemeNames.includes(name)) {
      // Else never sent, and every call fails with a 401 that does not say why.
      const near = closest(name, schemeNames);
      throw setup('service.setup.noScheme', { name, schemes: schemeNames.slice(0, 10).join(', '), ...(near ? { near } : {}) });
    }
  // Only the schemes the credentials name are kept for the calls (not the document).
  const usedSchemes = Object.fromEntries(Object.keys(settings.credentials).map((name) => [name, deref(doc, own(schemes, name))]));
  const operations = operationsOf(doc);
  const chosen = operations.filter((o) => isSelected(o, settings));
  const tools: ServiceTool[] = [];
  const tooLarge: string[] = [];
  const names = new Set<string>();
  for (const operation of chosen.slice(0, MAX_OPENAPI_OPERATIONS)) {
    const name = uniqueName(toolName(operation.id, operation.method, operation.path), names);
    try {
      tools.push(operationTool(doc, { ...operation, name }, base, settings, usedSchemes, context));
    } catch (error) {
      if (!(error instanceof SchemaTooLarge)) throw error;
      tooLarge.push(operation.id);
    }
  }
  if (chosen.length > MAX_OPENAPI_OPERATIONS)
    context.log.warn(
      `${settings.spec} has ${chosen.length} operations${hasSelection(settings) ? ' chosen' : ''}; the first ${MAX_OPENAPI_OPERATIONS} are served: choose which by "tags", "paths" or "operations"`,
    );
  if (tooLarge.length > 0)
    context.log.warn(
      `${tooLarge.length} operation(s) of ${settings.spec} are left out: their arguments' schema is too large (${tooLarge.slice(0, 5).join(', ')})`,
    );
  leaveOutMissing(settings, operations, context, setup);
  return tools;
}

/**
 * An operationId in `operations` that the document does not have: that one is left out, with the one
 * meant, and the others served; when none of them is there (and nothing else is chosen), the setup fails.
 */
function leaveOutMissing(
  settings: OpenApiSettings,
  operations: OperationInfo[],
  context: ServiceContext,
  setup: (code: ProblemCode, params?: Record<string, string>) => ServiceError,
): void {
  const wanted = settings.operations ?? [];
  const ids = operations.map((o) => o.id);
  const known = new Set(ids);
  const missing = wanted.filter((id) => !known.has(id));
  const near = (id: string) => ids.find((other) => other.toLowerCase().startsWith(id.toLowerCase())) ?? closest(id, ids);
  if (missing.length > 0 && missing.length === wanted.length && !settings.tags?.length && !settings.paths?.length) {
    const one = missing.length === 1 ? near(missing[0] as string) : undefined;
    throw setup('service.setup.noOperation', { names: missing.slice(0, 5).join(', '), ...(one ? { near: one } : {}) });
  }
  wanted.forEach((id, index) => {
    if (known.has(id)) return;
    const meant = near(id);
    context.leaveOut({ name: id, position: index + 1, reason: 'noSuchOperation', ...(meant ? { near: meant } : {}) });
  });
}

interface Operation extends OperationInfo {
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

/** What the model reads of an operation: its summary, the start of its description, its tags. */
function describedAs(o: Operation): string {
  let body = o.description;
  if (o.summary && body.startsWith(o.summary)) body = body.slice(o.summary.length).replace(/^[\s.:：。-]+/, '');
  if (body.length > MAX_DESCRIPTION) body = `${body.slice(0, MAX_DESCRIPTION - 1)}…`;
  const lead = o.summary && body ? `${o.summary}${/[.!?。！？]$/.test(o.summary) ? '' : '.'} ${body}` : o.summary || body;
  const tags = o.tags.length > 0 ? ` (${o.tags.join(', ')})` : '';
  return `${lead || `${o.method.toUpperCase()} ${o.path}`}${tags}`.slice(0, 1000);
}

function operationTool(
  doc: Node,
  o: Operation,
  base: string,
  settings: OpenApiSettings,
  schemes: Record<string, unknown>,
  context: ServiceContext,
): ServiceTool {
  const defs = new Defs(doc);
  // Keyed by the document's parameter and field names: no prototype.
  const properties = nameRecord<object>();
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
      // The body's own fields as arguments: what a spoken request names ("add a pet called Rex"); a
      // read-only field is the server's to fill, never sent.
      const sent = Object.entries(fields).filter(([, schema]) => !isReadOnly(doc, schema));
      for (const [name, schema] of sent) {
        properties[name] = defs.copy(isRecord(schema) ? schema : {});
        placements.set(name, { in: 'bodyField', name });
      }
      if (Array.isArray((target as Node).required))
        for (const name of (target as Node).required as unknown[])
          if (typeof name === 'string' && placements.has(name)) required.push(name);
    } else {
      properties.body = defs.copy(json.schema);
      placements.set('body', { in: 'body', name: 'body' });
      if (isRecord(body) && body.required === true) required.push('body');
    }
  }
  const inputSchema: Tool['inputSchema'] = {
    type: 'object',
    properties: { ...properties },
    ...(required.length > 0 ? { required: [...new Set(required)] } : {}),
    ...defs.section(),
  };
  if (JSON.stringify(inputSchema).length > MAX_SCHEMA_CHARS) throw new SchemaTooLarge();
  const security = (Array.isArray(o.op.security) ? o.op.security : Array.isArray(doc.security) ? doc.security : []) as unknown[];
  // A copy made of new strings: the strings JSON.parse made of a 13 MB document may be slices of its
  // text, and one kept would keep all of it.
  const tool = JSON.parse(JSON.stringify({ name: o.name, description: describedAs(o), inputSchema })) as Tool;
  return { tool, call: callOf({ method: o.method.toUpperCase(), path: o.path, placements, security }, base, settings, schemes, context) };
}

/**
 * An operation's call, made in a scope of its own: a closure keeps every variable its function's
 * other closures use, and one that could see the document would keep all of it.
 */
function callOf(
  plan: { method: string; path: string; placements: Map<string, Placement>; security: unknown[] },
  base: string,
  settings: OpenApiSettings,
  schemes: Record<string, unknown>,
  context: ServiceContext,
): ServiceTool['call'] {
  const { method, placements, security } = plan;
  const template = plan.path;
  return async (args, options) => {
    const segment = pathSegment(context.http.platform);
    const path = template.replace(/\{([^{}]+)\}/g, (_w, name: string) => segment(spoken(own(args, name)), name));
    const url = new URL(joinUrl(base, path));
    // Keyed by the document's header and field names: no prototype.
    const headers = nameRecord(Object.entries(settings.headers));
    let payload: unknown;
    const fields = nameRecord<unknown>();
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
    applySecurity(schemes, security, settings.credentials, headers, url);
    const answer = await context.http.send({ method, url: url.toString(), headers, body: payload }, options);
    // An empty answer (204) still tells the model it worked.
    return textAnswer(shapedAnswer(answer, undefined) || context.say('voice.service.done'));
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
  schemes: Record<string, unknown>,
  security: unknown[],
  credentials: Record<string, string>,
  headers: NameRecord<string>,
  url: URL,
): void {
  for (const requirement of security) {
    if (!isRecord(requirement)) continue;
    const names = Object.keys(requirement);
    if (!names.every((name) => own(credentials, name) !== undefined)) continue;
    for (const name of names) {
      const scheme = own(schemes, name);
      const secret = own(credentials, name) as string;
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
    const variable = own(variables, name);
    return isRecord(variable) && typeof variable.default === 'string' ? variable.default : '';
  });
  try {
    return new URL(url, from).toString();
  } catch {
    return undefined;
  }
}
