import { z } from 'zod';
import { useReadableZodMessages } from './zod-issue';

// Schema errors read like the rest of the app ("must be one of stdio, sse, streamable-http").
useReadableZodMessages();

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

export const EndpointSettingsSchema = z.object({
  id: z.string().min(1),
  name: NameSchema,
  url: WsUrlSchema,
  enabled: z.boolean().default(true),
});

const ServerCommon = {
  name: NameSchema,
  enabled: z.boolean().default(true),
  /** Per-call timeout toward this server; falls back to limits.callTimeoutMs. */
  callTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
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
});

export const ConnectionSettingsSchema = z.object({
  heartbeatIntervalMs: z.number().int().min(50).default(30_000),
  heartbeatTimeoutMs: z.number().int().min(50).default(10_000),
  connectTimeoutMs: z.number().int().min(50).default(15_000),
  reconnectBaseMs: z.number().int().min(10).default(1_000),
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
  ui: z
    .object({
      language: z.enum(['system', 'zh-CN', 'en']).default('system'),
      theme: z.enum(['system', 'light', 'dark']).default('system'),
      startHidden: z.boolean().default(false),
    })
    .default({ language: 'system', theme: 'system', startHidden: false }),
}).superRefine((settings, ctx) => {
  const seen = new Map<string, number>();
  settings.servers.forEach((server, index) => {
    const previous = seen.get(server.name);
    if (previous !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['servers', index, 'name'],
        message: `duplicates the name of servers[${previous}]`,
      });
    }
    seen.set(server.name, index);
  });
  const ids = new Map<string, number>();
  settings.endpoints.forEach((endpoint, index) => {
    const previous = ids.get(endpoint.id);
    if (previous !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['endpoints', index, 'id'],
        message: `duplicates the id of endpoints[${previous}]`,
      });
    }
    ids.set(endpoint.id, index);
  });
});

export type EndpointSettings = z.infer<typeof EndpointSettingsSchema>;
export type StdioServerSettings = z.infer<typeof StdioServerSettingsSchema>;
export type RemoteServerSettings = z.infer<typeof RemoteServerSettingsSchema>;
export type ServerSettings = z.infer<typeof ServerSettingsSchema>;
export type ToolSettings = z.infer<typeof ToolSettingsSchema>;
export type NamingPolicy = z.infer<typeof NamingPolicySchema>;
export type Limits = z.infer<typeof LimitsSchema>;
export type ConnectionSettings = z.infer<typeof ConnectionSettingsSchema>;
export type Settings = z.infer<typeof SettingsSchema>;
export type SettingsInput = z.input<typeof SettingsSchema>;

export function defaultSettings(): Settings {
  return SettingsSchema.parse({});
}
