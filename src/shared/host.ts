import { z } from 'zod';

import { lazySchema } from './lazy-schema';

export const RuntimeAvailabilitySchema = lazySchema(() => z.enum(['yours', 'app', 'fetch', 'missing']));
export type RuntimeAvailability = z.infer<typeof RuntimeAvailabilitySchema>;

/** What the process hosting the engine can do and says about itself (desktop app or headless). */
export const HostInfoSchema = lazySchema(() =>
  z.object({
    carrier: z.enum(['electron', 'web']),
    platform: z.string(),
    version: z.string(),
    /** How secrets are kept at rest: by the OS keychain, or in plain text and why. */
    secretStorage: z.enum(['encrypted', 'no-keyring', 'unavailable', 'config-file']),
    /** null where launching at login is not something this host does. */
    launchAtLogin: z.boolean().nullable(),
    /** Stored settings that could not be read were moved here (never discarded). */
    settingsRecovered: z.object({ movedTo: z.string(), reason: z.string() }).optional(),
    /** Changes are not saved: the config file belongs to another program. */
    readOnlyConfig: z.object({ file: z.string(), format: z.string() }).optional(),
    logsFolder: z.string().optional(),
    /**
     * Node.js and uv here: the user's own on PATH, the app's (fetched before), fetched by the app when a
     * server needs it, or missing (headless: the user installs it).
     */
    runtimes: z.object({ node: RuntimeAvailabilitySchema, uv: RuntimeAvailabilitySchema }).optional(),
    /** The window may ask for a missing runtime to be downloaded into the app's folder (`fetchRuntime`). */
    runtimeDownload: z.boolean().optional(),
    /** The window may open the system's folder and file picker (`choosePath`): the desktop app. */
    pathPicker: z.boolean().optional(),
    /**
     * The system's language as the engine reads it (the run's LANG; the desktop app's locale): the
     * window's language when the settings say "system", before the browser's own.
     */
    systemLocale: z.string().optional(),
    /** The download sources used while the user has chosen none (decided by the language or time zone). */
    unchosenMirrors: z.enum(['default', 'china']).optional(),
  }),
);

export type HostInfo = z.infer<typeof HostInfoSchema>;
