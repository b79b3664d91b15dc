import { z } from 'zod';

import { lazySchema } from './lazy-schema';

/** Why a check or download failed, as a code the UI words in either language. */
export const UpdateErrorCodeSchema = lazySchema(() =>
  z.enum([
    /** No network, the name does not resolve, the connection is refused or times out. */
    'offline',
    /** The feed answered, but has no update file for this platform (404 and the like). */
    'feed-missing',
    /** The feed's latest*.yml cannot be read (not YAML, no version, no files). */
    'feed-invalid',
    /** The download does not match its checksum, or the installer is not signed by us. */
    'integrity',
    /** The download made no progress for minutes: given up, tried again at the next check. */
    'stalled',
    /** Anything else. */
    'failed',
  ]),
);

export const UpdateStatusSchema = lazySchema(() =>
  z.object({
    state: z.enum([
      /** Not something this host does: the headless bridge, or a development run. */
      'unsupported',
      /** Automatic checks are switched off (checking by hand still works). */
      'disabled',
      'idle',
      'checking',
      'up-to-date',
      'downloading',
      /** Downloaded: "Restart to update to x.y.z". */
      'ready',
      /** A newer version exists but this install cannot update itself (the .deb): `downloadUrl` says where. */
      'manual',
      'error',
    ]),
    currentVersion: z.string(),
    /** The newer version found (downloading, ready, manual). */
    version: z.string().optional(),
    /** Download progress, 0–100. */
    percent: z.number().min(0).max(100).optional(),
    /** When the last check finished (ms since the epoch). */
    checkedAt: z.number().optional(),
    /** Where the update is checked: the GitHub releases or a mirror serving the same latest*.yml files. */
    feedUrl: z.string().optional(),
    /** The mirror this build uses when the user names none. */
    defaultMirror: z.string().optional(),
    downloadUrl: z.string().optional(),
    error: z
      .object({
        code: UpdateErrorCodeSchema,
        /** The updater's own words (redacted), for the logs and the details line. */
        message: z.string(),
        /** Show this one to the user: a new problem, or a check the user asked for. Repeats are not shown again. */
        announce: z.boolean(),
      })
      .optional(),
  }),
);

export type UpdateErrorCode = z.infer<typeof UpdateErrorCodeSchema>;
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;
