import { z } from 'zod';

import { lazySchema } from './lazy-schema';
import { own } from './own';
import { ProblemSchema } from './problem';

/**
 * The catalogue of servers a user can add in one click: shipped with the app as data
 * (src/main/core/catalogue/catalogue.json, validated by this schema in a test) and refreshed from
 * the official MCP registry when online. An entry is a template: `{id}` placeholders in its
 * arguments, environment, URL and headers are filled with the values the user is asked for.
 */

const Text = lazySchema(() => z.object({ en: z.string().min(1), zh: z.string().min(1) }));

export const CatalogueCategorySchema = lazySchema(() =>
  z.enum([
    'maps',
    'weather',
    'search',
    'time',
    'calculator',
    'memory',
    'files',
    'fetch',
    'browser',
    'home',
    'music',
    'calendar',
    'travel',
    'food',
    'modelscope',
    'developer',
    'other',
  ]),
);

const Placeholder = /^[a-zA-Z][a-zA-Z0-9_]*$/;

export const CatalogueValueSchema = lazySchema(() =>
  z.object({
    /** What `{id}` stands for in the run template. */
    id: z.string().regex(Placeholder),
    label: Text,
    hint: Text.optional(),
    /** `folder` and `file` are checked and resolved on this computer before the server is saved; `path` (the registry's) is either. */
    kind: z.enum(['secret', 'text', 'path', 'folder', 'file', 'url']),
    required: z.boolean(),
    default: z.string().optional(),
  }),
);

const StdioRun = lazySchema(() =>
  z.object({
    transport: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
  }),
);

const RemoteRun = lazySchema(() =>
  z.object({
    transport: z.enum(['streamable-http', 'sse']),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()).default({}),
  }),
);

export const CatalogueEntrySchema = lazySchema(() =>
  z.object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._/-]*$/),
    /** The server's name once added (the user may change it). */
    name: z.string().min(1).max(64),
    title: Text,
    description: Text,
    category: CatalogueCategorySchema,
    homepage: z.string().url(),
    run: z.discriminatedUnion('transport', [StdioRun, RemoteRun]),
    values: z.array(CatalogueValueSchema).default([]),
    /** Where the entry came from: shipped with the app, or the MCP registry. */
    source: z.enum(['shipped', 'registry']).default('shipped'),
    keywords: z.array(z.string()).default([]),
  }),
);

export const CatalogueFileSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    entries: z.array(CatalogueEntrySchema),
  }),
);

export const CatalogueSchema = lazySchema(() =>
  z.object({
    entries: z.array(CatalogueEntrySchema),
    /** When the registry was last read successfully (ms), if ever. */
    refreshedAt: z.number().optional(),
    /** Why the last refresh failed, in English (for logs); the UI shows `refreshProblem`. */
    refreshError: z.string().optional(),
    /** Why the last refresh failed, as a code the window words (no network, refused, timed out, HTTP error, unreadable). */
    refreshProblem: ProblemSchema.optional(),
  }),
);

export type CatalogueCategory = z.infer<typeof CatalogueCategorySchema>;
export type CatalogueValue = z.infer<typeof CatalogueValueSchema>;
export type CatalogueEntry = z.infer<typeof CatalogueEntrySchema>;
export type CatalogueEntryInput = z.input<typeof CatalogueEntrySchema>;
export type Catalogue = z.infer<typeof CatalogueSchema>;

/** Every `{id}` the entry's run template uses. */
export function placeholdersOf(entry: CatalogueEntry): string[] {
  const texts =
    entry.run.transport === 'stdio'
      ? [entry.run.command, ...entry.run.args, ...Object.values(entry.run.env)]
      : [entry.run.url, ...Object.values(entry.run.headers)];
  const found = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(/\{([a-zA-Z][a-zA-Z0-9_]*)\}/g)) found.add(m[1] as string);
  return [...found];
}

const fill = (text: string, values: Record<string, string>, shape: (value: string, next: string) => string = (value) => value) =>
  text.replace(/\{([a-zA-Z][a-zA-Z0-9_]*)\}/g, (whole, id: string, at: number) => {
    const value = own(values, id);
    return value === undefined ? whole : shape(value, text.charAt(at + whole.length));
  });

/**
 * An address template filled: a value in its query is encoded (a key with '+', '&', '#' or a space
 * reaches the server whole), and one followed by a path loses the slashes it was pasted with
 * ('http://ha.local:8123/' + '/mcp_server/sse' would be '//mcp_server', which Home Assistant does not serve).
 */
function fillUrl(template: string, values: Record<string, string>): string {
  const query = template.indexOf('?');
  const path = query < 0 ? template : template.slice(0, query);
  const head = fill(path, values, (value, next) => (next === '/' ? value.replace(/\/+$/, '') : value));
  return query < 0 ? head : `${head}?${fill(template.slice(query + 1), values, encodeURIComponent)}`;
}

/**
 * The server settings an entry makes with these values. An argument, environment variable or header
 * whose value was left empty is dropped (optional values).
 */
export function serverFromEntry(entry: CatalogueEntry, values: Record<string, string>, name = entry.name) {
  const given = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()]));
  const empty = (text: string) => [...text.matchAll(/\{([a-zA-Z][a-zA-Z0-9_]*)\}/g)].some((m) => !own(given, m[1] as string));
  if (entry.run.transport === 'stdio') {
    return {
      name,
      enabled: true,
      catalogue: entry.id,
      transport: 'stdio' as const,
      command: entry.run.command,
      args: entry.run.args.filter((a) => !empty(a)).map((a) => fill(a, given)),
      env: Object.fromEntries(
        Object.entries(entry.run.env)
          .filter(([, v]) => !empty(v))
          .map(([k, v]) => [k, fill(v, given)]),
      ),
    };
  }
  return {
    name,
    enabled: true,
    catalogue: entry.id,
    transport: entry.run.transport,
    url: fillUrl(entry.run.url, given),
    headers: Object.fromEntries(
      Object.entries(entry.run.headers)
        .filter(([, v]) => !empty(v))
        .map(([k, v]) => [k, fill(v, given)]),
    ),
  };
}

/** A template's text as a pattern: its `{id}` placeholders capture, the rest matches itself. */
function templatePattern(template: string): { pattern: RegExp; ids: string[] } {
  const ids: string[] = [];
  const source = template
    .split(/(\{[a-zA-Z][a-zA-Z0-9_]*\})/)
    .map((part) => {
      const id = /^\{([a-zA-Z][a-zA-Z0-9_]*)\}$/.exec(part)?.[1];
      if (!id) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      ids.push(id);
      return '([\\s\\S]*)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), ids };
}

/** Reads the values a filled template holds into `values`; false when the text is not that template filled. */
function readTemplate(template: string, text: string, values: Map<string, string>): boolean {
  const { pattern, ids } = templatePattern(template);
  const m = pattern.exec(text);
  if (!m) return false;
  ids.forEach((id, i) => values.set(id, m[i + 1] as string));
  return true;
}

/** Reads a template record (env, headers) back; an entry left out stands for an empty value. */
function readRecord(templates: Record<string, string>, record: Record<string, string>, values: Map<string, string>): void {
  for (const [key, template] of Object.entries(templates)) {
    const text = own(record, key);
    if (text !== undefined) readTemplate(template, text, values);
  }
}

/** The part of a server its entry's template makes, to compare one made again with the server held. */
function programOf(server: { transport: string } & Record<string, unknown>): string {
  const { transport, command, args, env, cwd, url, headers } = server;
  return JSON.stringify({ transport, command, args, env, cwd, url, headers });
}

/**
 * The values that make this server from its catalogue entry (for editing it in the values step), or
 * undefined when it was changed by hand in ways the entry cannot express (another command, an extra
 * argument, a working folder…): then only the developer form can show it.
 */
export function valuesFromServer(
  entry: CatalogueEntry,
  server: { transport: string } & Record<string, unknown>,
): Record<string, string> | undefined {
  const values = new Map<string, string>();
  if (entry.run.transport === 'stdio') {
    if (server.transport !== 'stdio' || !Array.isArray(server.args)) return undefined;
    const args = server.args as string[];
    let at = 0;
    for (const template of entry.run.args) {
      if (at < args.length && readTemplate(template, args[at] as string, values)) at += 1;
      // An argument with a value in it is left out when the value is empty; a fixed one never is.
      else if (templatePattern(template).ids.length === 0) return undefined;
    }
    readRecord(entry.run.env, (server.env ?? {}) as Record<string, string>, values);
  } else {
    if (server.transport !== entry.run.transport || typeof server.url !== 'string') return undefined;
    if (!readTemplate(entry.run.url, server.url, values)) return undefined;
    readRecord(entry.run.headers, (server.headers ?? {}) as Record<string, string>, values);
  }
  const result = Object.fromEntries(entry.values.map((value) => [value.id, values.get(value.id) ?? '']));
  // Only values the step can show: the same server made again from them, or the developer form.
  const again = serverFromEntry(entry, result, String(server.name));
  return programOf(again) === programOf(server) ? result : undefined;
}
