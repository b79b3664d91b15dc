import { z } from 'zod';

/** What the process hosting the engine can do and says about itself (desktop app or headless). */
export const HostInfoSchema = z.object({
  carrier: z.enum(['electron', 'web']),
  platform: z.string(),
  version: z.string(),
  /** Secrets are encrypted at rest by the OS keychain. */
  secretsEncrypted: z.boolean(),
  /** Why they are not, in words for the UI. */
  secretsNotice: z.string().optional(),
  /** null where launching at login is not something this host does. */
  launchAtLogin: z.boolean().nullable(),
  /** A problem with the stored settings the user must hear about (a corrupt file moved aside). */
  settingsNotice: z.string().optional(),
  /** Saving is not possible (a foreign config file the headless bridge must not rewrite). */
  readOnlyNotice: z.string().optional(),
  logsFolder: z.string().optional(),
});

export type HostInfo = z.infer<typeof HostInfoSchema>;
