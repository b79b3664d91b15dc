import { z } from 'zod';

import { lazySchema } from './lazy-schema';
import { ServedModeSchema, ToolModeSchema } from './settings';

/** What one endpoint is served: how many tools and bytes, in how many tools/list pages. */
export const ServedSummarySchema = lazySchema(() =>
  z.object({
    /** The mode it is served in now. */
    mode: ServedModeSchema,
    /** The mode chosen (`auto`: `mode` follows the budget). */
    chosen: ToolModeSchema.optional(),
    toolCount: z.number().int(),
    bytes: z.number().int(),
    pages: z.number().int(),
    /** In router mode, how many tools find_tools searches (0 in `all` mode). */
    searchable: z.number().int(),
    /**
     * The user's tools in this endpoint's set (the app's own left out), counted as the overview counts them:
     * what a person reads as "your tools", whatever the mode (optional: older carriers).
     */
    userTools: z.number().int().optional(),
  }),
);

export const ServedToolSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
    /** Bytes this tool takes in tools/list. */
    bytes: z.number().int(),
  }),
);

/** Exactly what the model sees in tools/list, page by page. */
export const ServedCatalogSchema = lazySchema(() =>
  z.object({
    summary: ServedSummarySchema,
    pages: z.array(z.object({ tools: z.array(ServedToolSchema), bytes: z.number().int() })),
  }),
);

/** One result of the router's search, as the window shows it. */
export const ToolSearchHitSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    server: z.string(),
    description: z.string(),
    score: z.number(),
  }),
);

export type ServedSummary = z.infer<typeof ServedSummarySchema>;
export type ServedCatalog = z.infer<typeof ServedCatalogSchema>;
export type ToolSearchHit = z.infer<typeof ToolSearchHitSchema>;
