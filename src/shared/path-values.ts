import { z } from 'zod';

/** What a catalogue value that names a place on this computer must be. */
export const PathValueKindSchema = z.enum(['folder', 'file', 'path']);
export type PathValueKind = z.infer<typeof PathValueKindSchema>;

/**
 * A folder or file value as the engine's computer sees it: the full path the server will be given
 * (a relative name resolved from the user's home folder), and what is wrong with it, if anything.
 */
export const PathCheckSchema = z.object({
  path: z.string(),
  problem: z.enum(['missing', 'notFolder', 'notFile', 'noParent']).optional(),
});
export type PathCheck = z.infer<typeof PathCheckSchema>;
