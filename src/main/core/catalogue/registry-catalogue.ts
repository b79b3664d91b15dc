import { z } from 'zod';

import { type CatalogueEntry, CatalogueEntrySchema, type CatalogueValue } from '../../../shared/catalogue';
import { lazySchema } from '../../../shared/lazy-schema';
import { nameRecord } from '../../../shared/own';
import { type Problem, problem } from '../../../shared/problem';
import { valueLabel } from '../../../shared/value-label';

/**
 * Reads the official MCP registry's public API (`GET /v0/servers`, cursor-paged) and keeps the
 * servers this app can run: npm packages (npx), PyPI packages (uvx) and remote streamable-HTTP or
 * SSE servers. Everything read is validated; an entry that does not fit is skipped, not fatal.
 */

const Input = lazySchema(() =>
  z.object({
    name: z.string().optional(),
    description: z.string().optional(),
    isRequired: z.boolean().optional(),
    isSecret: z.boolean().optional(),
    format: z.string().optional(),
    default: z.string().optional(),
    value: z.string().optional(),
    type: z.string().optional(),
    valueHint: z.string().optional(),
  }),
);

const RegistryServer = lazySchema(() =>
  z.object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().default(''),
    version: z.string().optional(),
    websiteUrl: z.string().optional(),
    repository: z.object({ url: z.string().optional() }).partial().optional(),
    packages: z
      .array(
        z.object({
          registryType: z.string(),
          identifier: z.string(),
          version: z.string().optional(),
          runtimeHint: z.string().optional(),
          transport: z.object({ type: z.string() }).partial().optional(),
          packageArguments: z.array(Input).optional(),
          environmentVariables: z.array(Input).optional(),
        }),
      )
      .optional(),
    remotes: z.array(z.object({ type: z.string(), url: z.string(), headers: z.array(Input).optional() })).optional(),
  }),
);

const ServerResponse = lazySchema(() =>
  z.object({
    server: RegistryServer,
    _meta: z
      .object({
        'io.modelcontextprotocol.registry/official': z
          .object({ status: z.string().optional(), isLatest: z.boolean().optional() })
          .partial()
          .optional(),
      })
      .partial()
      .optional(),
  }),
);

const ListResponse = lazySchema(() =>
  z.object({
    servers: z.array(z.unknown()),
    metadata: z.object({ nextCursor: z.string().optional().nullable(), count: z.number().optional() }).partial().optional(),
  }),
);

type RegistryServerData = z.infer<typeof RegistryServer>;

const placeholderId = (name: string) => name.replace(/[^a-zA-Z0-9_]/g, '_').replace(/^([^a-zA-Z])/, 'v$1');

function valueFrom(input: z.infer<typeof Input>, fallbackName: string): CatalogueValue {
  const label = input.name ?? fallbackName;
  const description = input.description?.slice(0, 300);
  return {
    id: placeholderId(label),
    label: valueLabel(label),
    ...(description ? { hint: { en: description, zh: description } } : {}),
    kind: input.isSecret ? 'secret' : input.format === 'filepath' ? 'path' : 'text',
    required: input.isRequired === true,
    ...(input.default ? { default: input.default } : {}),
  };
}

/** One registry server as a catalogue entry, or undefined if it is not something we can run. */
export function entryFromRegistry(server: RegistryServerData): CatalogueEntry | undefined {
  const short = server.name.split('/').pop() ?? server.name;
  const name = short.replace(/[^a-zA-Z0-9._-]/g, '-').slice(0, 64) || 'server';
  const title = server.title ?? short;
  const homepage = [
    server.websiteUrl,
    server.repository?.url,
    `https://registry.modelcontextprotocol.io/v0/servers?search=${encodeURIComponent(server.name)}`,
  ].find((u) => typeof u === 'string' && /^https?:\/\//.test(u)) as string;
  const description = server.description || title;
  const base = {
    id: `registry/${server.name.toLowerCase().replace(/[^a-z0-9._/-]/g, '-')}`,
    name,
    title: { en: title, zh: title },
    description: { en: description, zh: description },
    category: 'other' as const,
    homepage,
    source: 'registry' as const,
    keywords: [server.name],
  };
  const values: CatalogueValue[] = [];
  for (const pkg of server.packages ?? []) {
    if (pkg.transport?.type && pkg.transport.type !== 'stdio') continue;
    const runner = pkg.registryType === 'npm' ? 'npx' : pkg.registryType === 'pypi' ? 'uvx' : undefined;
    if (!runner) continue;
    const spec = pkg.version
      ? runner === 'npx'
        ? `${pkg.identifier}@${pkg.version}`
        : `${pkg.identifier}==${pkg.version}`
      : pkg.identifier;
    const args = runner === 'npx' ? ['-y', spec] : [spec];
    for (const arg of pkg.packageArguments ?? []) {
      if (arg.value !== undefined && !/\{/.test(arg.value)) {
        if (arg.type === 'named' && arg.name) args.push(arg.name);
        args.push(arg.value);
      } else if (arg.isRequired) {
        const value = valueFrom({ ...arg, name: arg.valueHint ?? arg.name }, `arg${args.length}`);
        values.push(value);
        if (arg.type === 'named' && arg.name) args.push(arg.name);
        args.push(`{${value.id}}`);
      }
    }
    // Names from the registry: records with no prototype.
    const env = nameRecord<string>();
    for (const variable of pkg.environmentVariables ?? []) {
      if (!variable.name) continue;
      const value = valueFrom(variable, variable.name);
      values.push(value);
      env[variable.name] = `{${value.id}}`;
    }
    return parse({ ...base, run: { transport: 'stdio', command: runner, args, env }, values });
  }
  for (const remote of server.remotes ?? []) {
    const transport = remote.type === 'streamable-http' ? 'streamable-http' : remote.type === 'sse' ? 'sse' : undefined;
    if (!transport || /\{/.test(remote.url)) continue;
    const headers = nameRecord<string>();
    for (const header of remote.headers ?? []) {
      if (!header.name) continue;
      const value = valueFrom(header, header.name);
      values.push(value);
      headers[header.name] =
        header.value && /\{/.test(header.value) ? header.value.replace(/\{([^}]+)\}/g, () => `{${value.id}}`) : `{${value.id}}`;
    }
    return parse({ ...base, run: { transport, url: remote.url, headers }, values });
  }
  return undefined;
}

function parse(entry: unknown): CatalogueEntry | undefined {
  const parsed = CatalogueEntrySchema.safeParse(entry);
  return parsed.success ? parsed.data : undefined;
}

export interface RegistryFetchOptions {
  baseUrl: string;
  /** Pages of 100 read at most (the registry holds thousands of servers). */
  maxPages: number;
  timeoutMs: number;
  fetch?: typeof fetch;
}

const MAX_PAGE_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/** A failure of the registry's own answer (not of the network), with the problem the window words. */
export class RegistryAnswerError extends Error {
  constructor(
    message: string,
    readonly problem: Problem,
  ) {
    super(message);
  }
}

const badAnswer = (message: string) => new RegistryAnswerError(message, problem('catalogue.badAnswer'));
const pageTooLarge = () => badAnswer(`the MCP registry sent a page larger than ${MAX_PAGE_BYTES / 1048576} MB`);

/**
 * A page's text, read no further than MAX_PAGE_BYTES: counted as it streams, so a registry (or a
 * proxy in front of it) sending an endless body is cut off at the cap instead of held whole.
 */
async function readPage(response: Response): Promise<string> {
  if (Number(response.headers.get('content-length')) > MAX_PAGE_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw pageTooLarge();
  }
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > MAX_PAGE_BYTES) throw pageTooLarge();
      chunks.push(read.value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Follows redirects within the registry's own origin only: the catalogue decides what users run. */
async function fetchWithinOrigin(doFetch: typeof fetch, url: URL, init: RequestInit): Promise<Response> {
  let at = url;
  for (let hop = 0; ; hop++) {
    const response = await doFetch(at, { ...init, redirect: 'manual' });
    if (response.status < 300 || response.status > 399 || response.status === 304) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = URL.parse(response.headers.get('location') ?? '', at);
    if (!response.headers.has('location') || !next)
      throw badAnswer(`the MCP registry answered HTTP ${response.status} with no usable address to go to`);
    if (next.origin !== url.origin)
      throw badAnswer(`the MCP registry redirected to another site (${next.origin}); only ${url.origin} is read`);
    if (hop >= MAX_REDIRECTS) throw badAnswer(`the MCP registry redirected more than ${MAX_REDIRECTS} times`);
    at = next;
  }
}

/** Every runnable, active, latest server of the registry, page by page, bounded. */
export async function fetchRegistry(options: RegistryFetchOptions): Promise<CatalogueEntry[]> {
  const doFetch = options.fetch ?? fetch;
  const entries: CatalogueEntry[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < options.maxPages; page++) {
    const url = new URL('/v0/servers', options.baseUrl);
    url.searchParams.set('limit', '100');
    url.searchParams.set('version', 'latest');
    if (cursor) url.searchParams.set('cursor', cursor);
    const response = await fetchWithinOrigin(doFetch, url, {
      signal: AbortSignal.timeout(options.timeoutMs),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new RegistryAnswerError(
        `the MCP registry answered HTTP ${response.status} for ${url.pathname}`,
        problem('catalogue.httpStatus', { status: response.status }),
      );
    }
    const text = await readPage(response);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw badAnswer('the MCP registry sent a page that is not JSON');
    }
    const list = ListResponse.safeParse(json);
    if (!list.success) throw badAnswer('the MCP registry sent a page this app does not understand');
    for (const item of list.data.servers) {
      const parsed = ServerResponse.safeParse(item);
      if (!parsed.success) continue;
      const official = parsed.data._meta?.['io.modelcontextprotocol.registry/official'];
      if (official?.status && official.status !== 'active') continue;
      if (official?.isLatest === false) continue;
      const entry = entryFromRegistry(parsed.data.server);
      if (entry && !seen.has(entry.id)) {
        seen.add(entry.id);
        entries.push(entry);
      }
    }
    cursor = list.data.metadata?.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return entries;
}
