import { z } from 'zod';

/** Names we route by: shown to users, keys in maps, so keep them printable and bounded. */
const NameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters');

const WsUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'ws:' || url.protocol === 'wss:';
    } catch {
      return false;
    }
  }, 'must be a ws:// or wss:// URL');

const HttpUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL');

export const ToolModeSchema = z.enum(['all', 'router']);

/** Update feeds: https, or http only on this machine (a local test feed). */
export const UpdateMirrorSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
    } catch {
      return false;
    }
  }, 'must be an https:// URL');

export const UpdateSettingsSchema = z.object({
  /** Check at start and every few hours, and download in the background. */
  enabled: z.boolean().default(true),
  /**
   * A server with the same latest*.yml files and installers as the GitHub releases (for users who
   * cannot reach GitHub). Unset: the build's default mirror, or GitHub.
   */
  mirrorUrl: UpdateMirrorSchema.optional(),
});

export const EndpointSettingsSchema = z.object({
  id: z.string().min(1),
  name: NameSchema,
  url: WsUrlSchema,
  enabled: z.boolean().default(true),
  /** `all` (when absent): every enabled tool is served. `router`: find_tools and call_tool (plus pinned tools) stand in for them. */
  toolMode: ToolModeSchema.optional(),
  /** Exposed names of tools served as themselves in router mode, beside find_tools and call_tool (absent: none). */
  pinned: z.array(z.string().min(1).max(64)).max(100).optional(),
});

const ServerCommon = {
  name: NameSchema,
  enabled: z.boolean().default(true),
  /** Per-call timeout toward this server; falls back to limits.callTimeoutMs. */
  callTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
  /** Check call arguments against the tool's input schema before sending (absent: yes). Off for servers that publish wrong schemas. */
  checkArguments: z.boolean().optional(),
};

export const StdioServerSettingsSchema = z.object({
  ...ServerCommon,
  transport: z.literal('stdio'),
  command: z.string().trim().min(1, 'must name a program to run'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});

export const RemoteServerSettingsSchema = z.object({
  ...ServerCommon,
  transport: z.enum(['sse', 'streamable-http']),
  url: HttpUrlSchema,
  headers: z.record(z.string(), z.string()).default({}),
});

export const ServerSettingsSchema = z.discriminatedUnion('transport', [
  StdioServerSettingsSchema,
  RemoteServerSettingsSchema,
]);

export const ToolSettingsSchema = z.object({
  enabled: z.boolean().default(true),
  /** Replaces the server's description when serving to xiaozhi. */
  description: z.string().optional(),
});

export const NamingPolicySchema = z.enum(['auto', 'always-prefix']);

export const LimitsSchema = z.object({
  /** Largest JSON-RPC message we send to an endpoint, in bytes (xiaozhi: 8192). */
  maxMessageBytes: z.number().int().min(1024).max(16 * 1024 * 1024).default(8192),
  /** Default per-call timeout toward a server. */
  callTimeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * While servers are still starting, a `tools/list` waits up to this long from their start, so a
   * broker that lists once (the self-hosted server) gets every tool. Kept well inside xiaozhi's
   * own request timeout (30 s self-hosted).
   */
  startGraceMs: z.number().int().min(0).max(120_000).default(20_000),
  /** Largest frame accepted from an endpoint; a bigger one ends that connection (WebSocket 1009). */
  maxIncomingBytes: z.number().int().min(16 * 1024).max(256 * 1024 * 1024).default(4 * 1024 * 1024),
  /**
   * What an endpoint can be served before xiaozhi struggles: a self-hosted server hung past ~25
   * tools, and 8 KB is one tools/list message; past either the window warns and suggests router mode.
   */
  budgetTools: z.number().int().min(1).max(10_000).default(25),
  budgetBytes: z.number().int().min(1024).max(16 * 1024 * 1024).default(8192),
});

export const ConnectionSettingsSchema = z.object({
  // A half-open socket is found within interval + timeout (30 s), well inside 45 s.
  heartbeatIntervalMs: z.number().int().min(50).default(20_000),
  heartbeatTimeoutMs: z.number().int().min(50).default(10_000),
  connectTimeoutMs: z.number().int().min(50).default(15_000),
  reconnectBaseMs: z.number().int().min(10).default(500),
  reconnectMaxMs: z.number().int().min(10).default(60_000),
  /** A session that stayed up this long resets the backoff. */
  stableAfterMs: z.number().int().min(0).default(60_000),
});

export const SettingsSchema = z.object({
  version: z.literal(1).default(1),
  endpoints: z.array(EndpointSettingsSchema).default([]),
  servers: z.array(ServerSettingsSchema).default([]),
  /** tools[serverName][toolName] */
  tools: z.record(z.string(), z.record(z.string(), ToolSettingsSchema)).default({}),
  naming: NamingPolicySchema.default('auto'),
  limits: LimitsSchema.default(LimitsSchema.parse({})),
  connection: ConnectionSettingsSchema.default(ConnectionSettingsSchema.parse({})),
  modelscope: z.object({ apiKey: z.string().optional() }).default({}),
  updates: UpdateSettingsSchema.default({ enabled: true }),
  ui: z
    .object({
      language: z.enum(['system', 'zh-CN', 'en']).default('system'),
      theme: z.enum(['system', 'light', 'dark']).default('system'),
      startHidden: z.boolean().default(false),
    })
    .default({ language: 'system', theme: 'system', startHidden: false }),
}).superRefine(
  (settings, ctx) => {
    // Runs even when other fields are invalid (`when`), so one pass reports every problem; the
    // values may then be anything, hence the guards.
    const duplicates = (list: unknown, key: 'name' | 'id', where: 'servers' | 'endpoints', what: string) => {
      const seen = new Map<unknown, number>();
      (Array.isArray(list) ? list : []).forEach((item: unknown, index) => {
        const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[key] : undefined;
        if (typeof value !== 'string') return;
        const previous = seen.get(value);
        if (previous !== undefined) ctx.addIssue({ code: 'custom', path: [where, index, key], message: `duplicates the ${what} of ${where}[${previous}]` });
        else seen.set(value, index);
      });
    };
    duplicates(settings.servers, 'name', 'servers', 'name');
    duplicates(settings.endpoints, 'id', 'endpoints', 'id');
  },
  { when: () => true },
);

export type EndpointSettings = z.infer<typeof EndpointSettingsSchema>;
export type StdioServerSettings = z.infer<typeof StdioServerSettingsSchema>;
export type RemoteServerSettings = z.infer<typeof RemoteServerSettingsSchema>;
export type ServerSettings = z.infer<typeof ServerSettingsSchema>;
export type ToolSettings = z.infer<typeof ToolSettingsSchema>;
export type NamingPolicy = z.infer<typeof NamingPolicySchema>;
export type ToolMode = z.infer<typeof ToolModeSchema>;
export type Limits = z.infer<typeof LimitsSchema>;
export type ConnectionSettings = z.infer<typeof ConnectionSettingsSchema>;
export type UpdateSettings = z.infer<typeof UpdateSettingsSchema>;
export type Settings = z.infer<typeof SettingsSchema>;
export type SettingsInput = z.input<typeof SettingsSchema>;

export function defaultSettings(): Settings {
  return SettingsSchema.parse({});
}
