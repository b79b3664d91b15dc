import { z } from 'zod';

import { lazySchema } from './lazy-schema';
import { ProblemSchema } from './problem';

export const RuntimeNameSchema = lazySchema(() => z.enum(['node', 'uv']));

/**
 * A download of Node.js or uv the window asked for (Download uv): under way (with its percent once
 * known), done (the version now in the app's folder), or failed (why, for the window to word).
 */
export const RuntimeFetchSchema = lazySchema(() =>
  z.discriminatedUnion('state', [
    z.object({ runtime: RuntimeNameSchema, state: z.literal('fetching'), percent: z.number().min(0).max(100).optional() }),
    z.object({ runtime: RuntimeNameSchema, state: z.literal('done'), version: z.string() }),
    z.object({ runtime: RuntimeNameSchema, state: z.literal('failed'), problem: ProblemSchema }),
  ]),
);

export type RuntimeFetch = z.infer<typeof RuntimeFetchSchema>;
