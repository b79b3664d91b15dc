import { z } from 'zod';

import { lazySchema } from './lazy-schema';

/** One field of a form a server asks the user to fill in during a call (MCP elicitation: flat, primitive fields). */
export const ElicitFieldSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    type: z.enum(['string', 'number', 'integer', 'boolean']),
    /** The choices, for a field that offers them. */
    choices: z.array(z.string()).optional(),
    required: z.boolean(),
  }),
);

/** A server's question during a call (elicitation/create), waiting for the user in the window. */
export const PendingElicitationSchema = lazySchema(() =>
  z.object({
    key: z.number().int(),
    server: z.string(),
    message: z.string(),
    fields: z.array(ElicitFieldSchema),
    askedAt: z.number(),
    /** Unanswered by then, it is declined (so the tool can still answer its caller in time). */
    expiresAt: z.number(),
  }),
);

export const ElicitValueSchema = lazySchema(() => z.union([z.string().max(10_000), z.number(), z.boolean()]));

export type ElicitField = z.infer<typeof ElicitFieldSchema>;
export type PendingElicitation = z.infer<typeof PendingElicitationSchema>;
export type ElicitValue = z.infer<typeof ElicitValueSchema>;
