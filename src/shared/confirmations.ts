import { z } from 'zod';

import { lazySchema } from './lazy-schema';

/** A call by voice held until the user allows or denies it, as the window lists it. */
export const PendingConfirmationSchema = lazySchema(() =>
  z.object({
    /** The window's handle on it. */
    key: z.number().int(),
    /** Who may confirm it: the person's PIN by voice (or the window), or the window and the web UI only. */
    via: z.enum(['pin', 'window']),
    /** The tool's name as the endpoint was served it, and its server. */
    tool: z.string(),
    server: z.string(),
    /** The tool's title (or its name): what the user is asked about. */
    title: z.string(),
    /** Its first arguments, each value cut short (redacted like everything that leaves the engine). */
    args: z.array(z.object({ name: z.string(), value: z.string() })),
    /** All its arguments as JSON (redacted, secret-named fields hidden): the panel lists them and folds this under "details". */
    argumentsJson: z.string().optional(),
    /** What it wants to do in our words, per window language (the server's catalogue title and the tool as said by voice). */
    said: z.object({ 'zh-CN': z.string(), en: z.string() }).optional(),
    /** Who asked: the endpoint's name. */
    caller: z.string(),
    askedAt: z.number(),
    expiresAt: z.number(),
  }),
);

/** What answering a held call came to: it runs (as background task `task`), it was refused, or it was no longer waiting. */
export const ConfirmationAnswerSchema = lazySchema(() =>
  z.object({
    outcome: z.enum(['allowed', 'denied', 'gone']),
    task: z.string().optional(),
  }),
);

export type PendingConfirmation = z.infer<typeof PendingConfirmationSchema>;
export type ConfirmationAnswer = z.infer<typeof ConfirmationAnswerSchema>;
