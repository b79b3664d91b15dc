import { z } from 'zod';

import { setOwn } from './own';

/**
 * The schema of a partial update of `schema`: every field optional and without its default.
 * (zod's own `.partial()` keeps defaults, so `{ theme: 'dark' }` would come out with the default
 * language too, and overwrite the user's.)
 */
export function patchOf<T extends z.ZodRawShape>(schema: z.ZodObject<T>): ReturnType<z.ZodObject<T>['partial']> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    setOwn(shape, key, (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field).optional());
  }
  return z.object(shape) as unknown as ReturnType<z.ZodObject<T>['partial']>;
}
