import { applyEdits, modify, parse as parseJsonc, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';

import { isRecord } from '../../../shared/is-record';
import { ModelSettingsSchema, SamplingBoundsSchema } from '../../../shared/model-settings';
import { nameRecord, own } from '../../../shared/own';
import { CozeWorkflowSchema, HttpRequestToolSchema, ServiceInputSchema } from '../../../shared/service-settings';
import {
  ConnectionSettingsSchema,
  EndpointSettingsSchema,
  LimitsSchema,
  LocalServerSettingsSchema,
  ServerSettingsSchema,
  type Settings,
  SettingsSchema,
  ToolSetSchema,
  UpdateSettingsSchema,
} from '../../../shared/settings';
import { closest } from '../../../shared/suggest';
import { nativeMigratedKeys } from './migrations';

/**
 * How a config file is written back: only what our settings say changes. Keys the schema does not
 * know (a "$schema", a "comment", someone's own notes), at any level we can match up, stay as
 * they were; a JSONC file keeps its comments and layout wherever its values did not change.
 */

type Known = {
  keys: ReadonlySet<string>;
  /** Fills in what is absent: a value equal to what it would fill in need not be written. */
  schema?: z.ZodType;
  nested?: Record<string, Known>;
  list?: Record<string, { by: string; item: Known }>;
  /**
   * The keys of one kind of entry (a server's, by its transport), for warnings. What a save keeps
   * is judged on `keys`, every kind's: a key of the kind a server was before is not carried over.
   */
  variant?: (entry: Record<string, unknown>) => Known;
};

const keysOf = (...shapes: object[]): Set<string> => new Set(shapes.flatMap((shape) => Object.keys(shape)));
const leaf = (schema: z.ZodType, ...shapes: object[]): Known => ({ keys: keysOf(...shapes), schema });

/** A web service's own lists, matched item to item, so a save writes no default the file did not have (`"type": "string"`). */
const INPUTS = { by: 'name', item: leaf(ServiceInputSchema, ServiceInputSchema.shape) };
const SERVICE_LISTS: Known['list'] = {
  tools: { by: 'name', item: leaf(HttpRequestToolSchema, HttpRequestToolSchema.shape) },
  workflows: { by: 'id', item: { ...leaf(CozeWorkflowSchema, CozeWorkflowSchema.shape), list: { inputs: INPUTS } } },
  inputs: INPUTS,
};

/**
 * A server entry's keys are those of its transport's schema (a `token` is a setting of Coze, not
 * of a stdio server); an entry whose transport is unknown is judged against every kind's keys.
 * Derived from the schemas, so a new kind or key never needs a list kept by hand.
 */
const SERVER_KINDS = ServerSettingsSchema.options.map((option) => ({
  transport: option.shape.transport,
  known: { ...leaf(ServerSettingsSchema, option.shape), list: SERVICE_LISTS },
}));
const ANY_SERVER: Known = {
  ...leaf(ServerSettingsSchema, ...ServerSettingsSchema.options.map((option) => option.shape)),
  list: SERVICE_LISTS,
  variant: (entry) => SERVER_KINDS.find((kind) => kind.transport.safeParse(entry.transport).success)?.known ?? ANY_SERVER,
};

/** The known keys of one entry of a list. */
const itemKnown = (item: Known, entry: Record<string, unknown>): Known => item.variant?.(entry) ?? item;

/** What the schema knows, level by level; arrays are matched item to item by a key. */
const KNOWN: Known = {
  keys: keysOf(SettingsSchema.shape),
  schema: SettingsSchema,
  nested: {
    limits: leaf(LimitsSchema, LimitsSchema.shape),
    connection: leaf(ConnectionSettingsSchema, ConnectionSettingsSchema.shape),
    localServer: leaf(LocalServerSettingsSchema, LocalServerSettingsSchema.shape),
    updates: leaf(UpdateSettingsSchema, UpdateSettingsSchema.shape),
    modelscope: { keys: new Set(['apiKey']) },
    model: {
      ...leaf(ModelSettingsSchema, ModelSettingsSchema.shape),
      nested: { sampling: leaf(SamplingBoundsSchema, SamplingBoundsSchema.shape) },
    },
    ui: leaf(SettingsSchema.shape.ui, SettingsSchema.shape.ui.unwrap().shape),
  },
  list: {
    endpoints: { by: 'id', item: leaf(EndpointSettingsSchema, EndpointSettingsSchema.shape) },
    servers: { by: 'name', item: ANY_SERVER },
    toolSets: { by: 'id', item: leaf(ToolSetSchema, ToolSetSchema.shape) },
  },
};

/** Always written: it says which format (and which migrations) the file is in. */
const ALWAYS = new Set(['version']);

/**
 * `value` without the keys the file did not have and the schema would fill in the same anyway.
 * Judged on `whole` (the level before its own levels were trimmed), written from `value`.
 */
function withoutFilledDefaults(
  value: Record<string, unknown>,
  whole: Record<string, unknown>,
  before: Record<string, unknown> | undefined,
  known: Known,
): Record<string, unknown> {
  if (!known.schema) return value;
  // Keyed by the file's and the settings' names (tools, servers): records with no prototype.
  const out = nameRecord(Object.entries(value));
  const probe = nameRecord(Object.entries(whole));
  for (const key of Object.keys(whole)) {
    if ((before && Object.hasOwn(before, key)) || ALWAYS.has(key)) continue;
    const without = nameRecord(Object.entries(probe));
    delete without[key];
    const filled = known.schema.safeParse({ ...without });
    if (filled.success && isRecord(filled.data) && same(own(filled.data, key), own(whole, key))) {
      delete out[key];
      delete probe[key];
    }
  }
  return out;
}

/** `after`, plus the keys of `before` the schema does not know (a removed known key stays removed). */
function keepUnknown(after: Record<string, unknown>, before: unknown, known: Known): Record<string, unknown> {
  if (!isRecord(before)) return withoutFilledDefaultsDeep(after, undefined, known);
  const out = nameRecord<unknown>();
  // The file's own order first, so an unchanged file writes back unchanged.
  for (const [key, value] of Object.entries(before)) {
    if (Object.hasOwn(after, key)) out[key] = after[key];
    else if (!known.keys.has(key)) out[key] = value;
  }
  for (const [key, value] of Object.entries(after)) if (!Object.hasOwn(out, key)) out[key] = value;
  for (const [key, inner] of Object.entries(known.nested ?? {})) {
    if (isRecord(out[key])) out[key] = keepUnknown(out[key] as Record<string, unknown>, own(before, key), inner);
  }
  for (const [key, { by, item }] of Object.entries(known.list ?? {})) {
    const list = out[key];
    const was = own(before, key);
    const previous = new Map(
      (Array.isArray(was) ? (was as unknown[]) : []).filter(isRecord).map((entry) => [own(entry, by) ?? entry.name, entry] as const),
    );
    if (Array.isArray(list))
      out[key] = list.map((entry) => (isRecord(entry) ? keepUnknown(entry, previous.get(own(entry, by)), item) : entry));
  }
  return withoutFilledDefaults(out, { ...before, ...after }, before, known);
}

/** The same for a level the file did not have at all (a new file, a new server). */
function withoutFilledDefaultsDeep(after: Record<string, unknown>, before: undefined, known: Known): Record<string, unknown> {
  const out = nameRecord(Object.entries(after));
  const whole = nameRecord(Object.entries(after));
  for (const [key, inner] of Object.entries(known.nested ?? {}))
    if (isRecord(out[key])) out[key] = withoutFilledDefaultsDeep(out[key] as Record<string, unknown>, undefined, inner);
  for (const [key, { item }] of Object.entries(known.list ?? {})) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((entry) => (isRecord(entry) ? withoutFilledDefaultsDeep(entry, undefined, item) : entry));
  }
  return withoutFilledDefaults(out, whole, before, known);
}

/** Keys of a native config the schema does not know, with the known key nearest to each (a typo). */
export function unknownKeys(value: unknown): { path: (string | number)[]; key: string; suggestion?: string }[] {
  const found: { path: (string | number)[]; key: string; suggestion?: string }[] = [];
  const walk = (node: unknown, known: Known, path: (string | number)[]) => {
    if (!isRecord(node)) return;
    for (const key of Object.keys(node)) {
      if (!known.keys.has(key) && !key.startsWith('$')) {
        const suggestion = closest(key, [...known.keys]);
        found.push({ path: [...path, key], key, ...(suggestion ? { suggestion } : {}) });
      }
    }
    for (const [key, inner] of Object.entries(known.nested ?? {})) walk(own(node, key), inner, [...path, key]);
    for (const [key, { item }] of Object.entries(known.list ?? {})) {
      const list = own(node, key);
      if (Array.isArray(list)) list.forEach((entry, i) => walk(entry, isRecord(entry) ? itemKnown(item, entry) : item, [...path, key, i]));
    }
  };
  walk(value, KNOWN, []);
  return found;
}

/** The text of a JSON(C) file, as an object; undefined when it is not one. */
export function parseConfigObject(text: string): Record<string, unknown> | undefined {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true });
  return errors.length === 0 && isRecord(value) ? value : undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The new text of a config file holding `settings`: the previous text edited in place where it
 * parses (comments kept), or fresh JSON.
 */
export function configFileText(settings: Settings | Record<string, unknown>, previousText: string | undefined): string {
  const before = previousText === undefined ? undefined : parseConfigObject(previousText);
  // What the migrations moved (version 1's `tools`, now the default set's) is not kept as well.
  const kept = before && Object.fromEntries(Object.entries(before).filter(([key]) => !nativeMigratedKeys(before).includes(key)));
  const merged = keepUnknown(settings as Record<string, unknown>, kept, KNOWN);
  if (!before || previousText === undefined) return `${JSON.stringify(merged, null, 2)}\n`;
  let text = previousText;
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };
  // Edits as deep as the values differ: a comment beside an unchanged value is never touched.
  const edit = (path: (string | number)[], was: unknown, now: unknown): void => {
    if (same(was, now)) return;
    if (isRecord(was) && isRecord(now)) {
      for (const [key, value] of Object.entries(now)) edit([...path, key], own(was, key), value);
      for (const key of Object.keys(was))
        if (!Object.hasOwn(now, key)) text = applyEdits(text, modify(text, [...path, key], undefined, { formattingOptions }));
      return;
    }
    if (Array.isArray(was) && Array.isArray(now) && was.length === now.length) {
      now.forEach((value, i) => edit([...path, i], was[i], value));
      return;
    }
    text = applyEdits(text, modify(text, path, now, { formattingOptions }));
  };
  edit([], before, merged);
  return text.endsWith('\n') ? text : `${text}\n`;
}
