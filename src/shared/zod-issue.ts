import type { z } from 'zod';

/** The first problem of a failed parse: its dotted path ('' for the root) and message. */
export function firstIssue(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0];
  return { path: issue?.path.map(String).join('.') ?? '', message: issue?.message ?? 'invalid' };
}
