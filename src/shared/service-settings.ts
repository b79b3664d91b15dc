import { z } from 'zod';

import { isAllowedKey, KEY_NAME_RULE } from './forbidden-keys';
import { HeadersSchema, ONE_LINE_RULE, oneLine } from './header-values';
import { MAX_OPENAPI_OPERATIONS } from './openapi-selection';
import type { ServiceSettings } from './settings';

/**
 * Web services served as tools beside MCP servers: an entry of `servers` whose `transport` names a
 * platform (its own request tools, an OpenAPI document, a Coze workflow, a Dify app, an n8n
 * webhook, Home Assistant) rather than an MCP transport. Each asks only what its platform needs.
 * The `transport` key is kept as the one discriminator of `servers`, so every server and service
 * shares names, tool sets, switches and commands; a separate `type` key would clash with the
 * `"type": "http"` of other programs' MCP configs (streamable HTTP there).
 */

export const SERVICE_KINDS = ['http-api', 'openapi', 'coze', 'dify', 'n8n', 'home-assistant'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

export const isServiceKind = (transport: string): transport is ServiceKind => (SERVICE_KINDS as readonly string[]).includes(transport);

/** A name xiaozhi can call (the hub's rule for exposed names). */
export const ServiceToolNameSchema = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or - (a name xiaozhi can call)');

/** An argument a workflow or webhook takes: becomes a property of the tool's input schema. */
export const ServiceInputSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters').refine(isAllowedKey, KEY_NAME_RULE),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array']).default('string'),
  description: z.string().max(1000).optional(),
  required: z.boolean().default(true),
});

/** How a JSON answer becomes the text the model hears: a field (JSON Pointer, RFC 6901) and/or a template of fields. */
export const ServiceResultSchema = z.object({
  /** `/data/temperature`: only this field of the answer. */
  pick: z
    .string()
    .refine((p) => p === '' || p.startsWith('/'), 'must be a JSON Pointer: empty, or starting with / (for example /data/temp)')
    .optional(),
  /** `It is {/data/temp} degrees`: each `{pointer}` replaced by that field. */
  template: z.string().max(2000).optional(),
});

/** One request as a tool: method, URL template, query, headers and body built from the arguments. */
export const HttpRequestToolSchema = z.object({
  name: ServiceToolNameSchema,
  description: z.string().max(4000).default(''),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
  /** Absolute, or a path joined to the service's `baseUrl`; `{arg}` is replaced by the argument (URL-encoded). */
  url: z.string().trim().min(1, 'must not be empty'),
  query: z.record(z.string(), z.string()).default({}),
  headers: HeadersSchema.default({}),
  /** JSON sent as the body; a string `"{arg}"` becomes the argument's value, `"{*}"` all the arguments. */
  body: z.unknown().optional(),
  /** The arguments' JSON Schema; absent: one required text argument per `{placeholder}`. */
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  result: ServiceResultSchema.optional(),
});

export const DIFY_CLOUD_URL = 'https://api.dify.ai/v1';
export const COZE_SITES = { 'coze.cn': 'https://api.coze.cn', 'coze.com': 'https://api.coze.com' } as const;

export const CozeWorkflowSchema = z.object({
  /** The number after `workflow_id=` in the workflow's editing page URL. */
  id: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z_-]{1,64}$/, 'must be the workflow id (the number in the workflow page URL)'),
  tool: ServiceToolNameSchema,
  description: z.string().max(4000).default(''),
  inputs: z.array(ServiceInputSchema).max(50).default([]),
});

/**
 * Why a request tool's URL can never be fetched, if it cannot: another scheme than http(s)
 * (ftp:, file:), or a path with no base URL to join it to (an argument is one encoded path
 * segment, so `{url}` alone is a path too).
 */
export function requestUrlProblem(url: string, hasBase: boolean): string | undefined {
  if (/^https?:\/\//i.test(url)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return 'must be an http:// or https:// address';
  return hasBase ? undefined : 'is a path without the service\'s "baseUrl": write the whole address (https://…), or give "baseUrl"';
}

/** The settings of each kind, spread into the server schema of `settings.ts` (with the common fields). */
export function serviceShapes<T extends z.ZodRawShape>(common: T, httpUrl: z.ZodType<string>) {
  return {
    httpApi: z
      .object({
        ...common,
        transport: z.literal('http-api'),
        /** Joined to each tool's relative URL. */
        baseUrl: httpUrl.optional(),
        /** Sent with every request (an `Authorization` or API key header is kept secret). */
        headers: HeadersSchema.default({}),
        tools: z.array(HttpRequestToolSchema).min(1, 'must list at least one request').max(100),
      })
      // A URL that can only fail at every call is said by `check` and the window, with where it is.
      .superRefine((parsed, ctx) => {
        // The common fields are generic here: only what the check reads is named.
        const service = parsed as unknown as { baseUrl?: string; tools: { url: string }[] };
        service.tools.forEach((tool, i) => {
          const problem = requestUrlProblem(tool.url, service.baseUrl !== undefined);
          if (problem) ctx.addIssue({ code: 'custom', path: ['tools', i, 'url'], message: problem });
        });
      }),
    openapi: z.object({
      ...common,
      transport: z.literal('openapi'),
      /** An http(s) URL or a file path of an OpenAPI 3.0/3.1 document, JSON or YAML. */
      spec: z.string().trim().min(1, 'must be the URL or file of an OpenAPI document'),
      /** Overrides the document's `servers`. */
      baseUrl: httpUrl.optional(),
      /** The operations served, by operationId (with `tags` and `paths`: those any of them chooses; none: every operation, up to 100). */
      operations: z.array(z.string().min(1)).max(MAX_OPENAPI_OPERATIONS).optional(),
      /** Every operation of these tags (the document's groups: `issues`, `pulls`). */
      tags: z.array(z.string().min(1).max(200)).max(200).optional(),
      /** Every operation at these paths; `*` stands for any text (`/repos/{owner}/{repo}/issues*`). */
      paths: z.array(z.string().min(1).max(500)).max(200).optional(),
      /** The secret of each security scheme, by its name in `components.securitySchemes` (bearer, API key). */
      credentials: z.record(z.string(), z.string()).default({}),
      /**
       * Sent with every call (kept secret): credentials a document does not describe (GitHub's names no
       * security scheme: `"Authorization": "Bearer ghp_…"`).
       */
      headers: HeadersSchema.default({}),
    }),
    coze: z.object({
      ...common,
      transport: z.literal('coze'),
      site: z.enum(['coze.cn', 'coze.com']).default('coze.cn'),
      /** Another deployment of the same API (absent: the site's). */
      baseUrl: httpUrl.optional(),
      /** The personal access token (pat_…), with the workflow run permission. */
      token: z.string().trim().min(1, 'must be a personal access token').refine(oneLine, ONE_LINE_RULE),
      workflows: z.array(CozeWorkflowSchema).min(1, 'must list at least one workflow').max(50),
    }),
    dify: z.object({
      ...common,
      transport: z.literal('dify'),
      /** The API base URL shown on the app's API page (cloud: https://api.dify.ai/v1). */
      baseUrl: httpUrl.default(DIFY_CLOUD_URL),
      /** The app's API key (app-…). */
      apiKey: z.string().trim().min(1, 'must be the app API key').refine(oneLine, ONE_LINE_RULE),
      /** Used only where the app cannot say its own mode (a Dify older than GET /info): its mode decides the route. */
      app: z.enum(['workflow', 'chat']).default('workflow'),
      /** Absent: from the app's name (GET /info), else `dify_<mode>`. */
      tool: ServiceToolNameSchema.optional(),
      /** Absent: the app's name and description (GET /info). */
      description: z.string().max(4000).default(''),
      /** Workflow apps: the output variable spoken (absent: every output). */
      output: z.string().optional(),
    }),
    n8n: z.object({
      ...common,
      transport: z.literal('n8n'),
      /** The webhook's production URL (…/webhook/…). */
      url: httpUrl,
      method: z.enum(['POST', 'GET']).default('POST'),
      /** Header auth: the header name and value the Webhook node's credential expects (kept secret). */
      headers: HeadersSchema.default({}),
      tool: ServiceToolNameSchema,
      description: z.string().max(4000).default(''),
      inputs: z.array(ServiceInputSchema).max(50).default([]),
      result: ServiceResultSchema.optional(),
    }),
    homeAssistant: z.object({
      ...common,
      transport: z.literal('home-assistant'),
      /** http://homeassistant.local:8123 */
      baseUrl: httpUrl,
      /** A long-lived access token (your profile, Security). */
      token: z.string().trim().min(1, 'must be a long-lived access token').refine(oneLine, ONE_LINE_RULE),
      /** Services served as tools, `domain.service` (light.turn_on). */
      services: z
        .array(z.string().regex(/^[a-z0-9_]+\.[a-z0-9_]+$/, 'must be domain.service, for example light.turn_on'))
        .max(100)
        .default([]),
      /** Serve `get_state`, "what is the state of…", over the entities. */
      states: z.boolean().default(true),
    }),
  };
}

/** Where a service sends its requests, in one line (a list row, the CLI's `servers`): never a secret. */
export function serviceTarget(service: ServiceSettings): string {
  switch (service.transport) {
    case 'http-api':
      return service.baseUrl ?? service.tools[0]?.url ?? '';
    case 'openapi':
      return service.spec;
    case 'coze':
      return `${service.baseUrl ?? COZE_SITES[service.site]} (${service.workflows.map((w) => w.id).join(', ')})`;
    case 'dify':
    case 'home-assistant':
      return service.baseUrl;
    case 'n8n':
      return service.url;
  }
}
