import { z } from 'zod';

import { lazySchema } from './lazy-schema';

/**
 * Which operations of an OpenAPI document are served: every one (up to a hundred) when nothing is
 * chosen, else those chosen by tag (an operation's group, `issues`), by path (`/repos/{owner}/{repo}/issues`,
 * or with `*` for any text: `/repos/*`) or by operationId. One rule for the engine and the window,
 * which counts what a choice serves before it is saved.
 */

export interface OpenApiSelection {
  operations?: readonly string[] | undefined;
  tags?: readonly string[] | undefined;
  paths?: readonly string[] | undefined;
}

/** What the rule reads of an operation. */
export interface OperationRef {
  id: string;
  path: string;
  tags: readonly string[];
}

/** Operations served from one document at most (a big API is chosen from, not served whole). */
export const MAX_OPENAPI_OPERATIONS = 100;

export const hasSelection = (selection: OpenApiSelection): boolean =>
  (selection.operations?.length ?? 0) + (selection.tags?.length ?? 0) + (selection.paths?.length ?? 0) > 0;

/** A path pattern: the path itself, or with `*` standing for any text (`/repos/*` is every path under /repos/). */
export function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('*')) return pattern === path;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(path);
}

/** Whether a selection serves this operation (everything, when nothing is chosen). */
export function isSelected(operation: OperationRef, selection: OpenApiSelection): boolean {
  if (!hasSelection(selection)) return true;
  return (
    (selection.operations?.includes(operation.id) ?? false) ||
    operation.tags.some((tag) => selection.tags?.includes(tag) ?? false) ||
    (selection.paths?.some((pattern) => pathMatches(pattern, operation.path)) ?? false)
  );
}

/** A document as the service dialog chooses from it: its title, groups (tags) and operations, without their schemas. */
export const OpenApiOutlineSchema = lazySchema(() =>
  z.object({
    title: z.string(),
    version: z.string(),
    server: z.string().optional(),
    /** The names of its security schemes (what `credentials` are keyed by). */
    schemes: z.array(z.string()),
    tags: z.array(z.object({ name: z.string(), description: z.string() })),
    operations: z.array(
      z.object({
        id: z.string(),
        method: z.string(),
        path: z.string(),
        summary: z.string(),
        description: z.string(),
        tags: z.array(z.string()),
      }),
    ),
  }),
);
export type OpenApiOutline = z.infer<typeof OpenApiOutlineSchema>;
