import { z } from 'zod';

import { ConfirmationSettingsSchema } from './confirmation-pin';
import { cleanEndpointUrl, type EndpointUrlRefusal } from './endpoint-url';
import { isAllowedKey, KEY_NAME_RULE } from './forbidden-keys';
import { HeadersSchema } from './header-values';
import { MASK_MARKER } from './masked';
import { DownloadUrlSchema, MirrorSettingsSchema } from './mirrors';
import { ModelSettingsSchema, SentenceSetsSchema } from './model-settings';
import { serviceShapes, serviceTarget } from './service-settings';
import { useReadableZodMessages } from './zod-issue';

// Schema errors read like the rest of the app ("must be one of stdio, sse, streamable-http").
useReadableZodMessages();

/** Names we route by: shown to users, keys in maps, so keep them printable and bounded. */
const NameSchema = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

/** A server or tool name: a key in the saved config (tool switches), so a name a config file refuses as a key is refused. */
export const KeyNameSchema = z.string().refine(isAllowedKey, KEY_NAME_RULE);

/** A URL as typed or pasted: no spaces or control characters inside (the URL parser would drop some silently). */
const PLAIN_URL = /^[^\s\u0000-\u001f\u007f]+$/;

/** A plain URL whose scheme is one of `protocols` (e.g. `ws:`), refused with `message` otherwise. */
function urlSchema(protocols: readonly string[], message: string) {
  return z
    .string()
    .trim()
    .refine((value) => PLAIN_URL.test(value), 'must not contain spaces or line breaks')
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, message);
}

/** Why a pasted endpoint URL was refused, in the words of the other URL checks. */
const ENDPOINT_URL_REFUSALS: Record<EndpointUrlRefusal, string> = {
  empty: 'must not be empty',
  spaces: 'must not contain spaces or line breaks',
  extraText: 'has other text before the address: paste the address alone',
  several: 'holds more than one address: paste one',
  scheme: 'must be a ws:// or wss:// URL',
  invalid: 'must be a ws:// or wss:// URL',
};

/**
 * An endpoint URL as pasted: quotes, a `MCP_ENDPOINT=` prefix, a wrapped line or a trailing `"`
 * are taken off (`endpoint-url.ts`); what cannot be told from the address is refused with why.
 */
const EndpointUrlSchema = z.string().transform((value, ctx) => {
  const cleaned = cleanEndpointUrl(value);
  if (cleaned.ok) return cleaned.url;
  ctx.addIssue({ code: 'custom', message: ENDPOINT_URL_REFUSALS[cleaned.reason] });
  return z.NEVER;
});

const HttpUrlSchema = urlSchema(['http:', 'https:'], 'must be an http:// or https:// URL').refine((value) => {
  try {
    const url = new URL(value);
    return !url.username && !url.password;
  } catch {
    return true;
  }
}, 'must not contain a user name or password (fetch refuses them): put the credentials in headers, e.g. Authorization');

/**
 * `auto`: every tool while they fit the endpoint's budget (limits.budgetTools, budgetBytes), search
 * (router) by itself when they do not; `all`: every tool, always; `router`: always search.
 */
export const ToolModeSchema = z.enum(['auto', 'all', 'router']);
/** The mode an endpoint is served in at a moment (auto resolved). */
export const ServedModeSchema = z.enum(['all', 'router']);

/** Update feeds: https, or http only on this machine (a local test feed). */
export const UpdateMirrorSchema = DownloadUrlSchema;

export const UpdateSettingsSchema = z.object({
  /** Check at start and every few hours, and download in the background. */
  enabled: z.boolean().default(true),
  /**
   * A server with the same latest*.yml files and installers as the GitHub releases (for users who
   * cannot reach GitHub). Unset: the build's default mirror, or GitHub.
   */
  mirrorUrl: UpdateMirrorSchema.optional(),
});

/** The default tool set: every tool of every server, as the app served before tool sets existed. */
export const DEFAULT_TOOL_SET = 'all';

const ToolSetIdSchema = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

export const EndpointSettingsSchema = z.object({
  id: z.string().min(1),
  name: NameSchema,
  url: EndpointUrlSchema,
  enabled: z.boolean().default(true),
  /** `auto` (when absent): `all` while it fits the budget, else `router`. `all`: every enabled tool is served. `router`: find_tools and call_tool (plus pinned tools) stand in for them. */
  toolMode: ToolModeSchema.optional(),
  /** Exposed names of tools served as themselves in router mode, beside find_tools and call_tool (absent: none). */
  pinned: z.array(z.string().min(1).max(64)).max(100).optional(),
  /** The id of the tool set this endpoint serves; absent means the default set. */
  toolSet: ToolSetIdSchema.optional(),
  /**
   * How long the caller waits for a tool call: `xiaozhi.me` (300 s), `self-hosted` (30 s) or seconds;
   * absent: read from the URL. A call still running near it is answered and finishes in the background.
   */
  patience: z.union([z.enum(['xiaozhi.me', 'self-hosted']), z.number().min(1).max(3600)]).optional(),
});

/**
 * A tool called by voice: run at once; ask first (the person says their confirmation PIN, or allows
 * it in the window); only when allowed in the window or the web UI (voice can never confirm it); never.
 */
export const ToolPolicySchema = z.enum(['run', 'ask', 'window', 'never']);
export type ToolPolicy = z.infer<typeof ToolPolicySchema>;

/** The name the bridge's own tools are listed under (a server of that name would share their switches). */
export const RESERVED_SERVER_NAME = 'xiaozhi-tray';

const ServerCommon = {
  name: NameSchema.refine(isAllowedKey, KEY_NAME_RULE).refine(
    (name) => name !== RESERVED_SERVER_NAME,
    `is the name of Xiaozhi Tray's own tools; choose another`,
  ),
  enabled: z.boolean().default(true),
  /** Per-call timeout toward this server; falls back to limits.callTimeoutMs. */
  callTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
  /** Check call arguments against the tool's input schema before sending (absent: yes). Off for servers that publish wrong schemas. */
  checkArguments: z.boolean().optional(),
  /** Its tools called by voice: run, ask first, or never (absent: ask for tools marked destructive, run the rest). */
  toolPolicy: ToolPolicySchema.optional(),
  /** The same per tool (by the server's own tool name); wins over `toolPolicy`. */
  toolPolicies: z.record(z.string(), ToolPolicySchema).optional(),
};

/** The catalogue entry a server was added from (its id): editing it shows that entry's values again. */
const FromCatalogue = { catalogue: z.string().min(1).max(200).optional() };

export const StdioServerSettingsSchema = z.object({
  ...ServerCommon,
  ...FromCatalogue,
  transport: z.literal('stdio'),
  command: z.string().trim().min(1, 'must name a program to run'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});

/**
 * A remote server's sign-in (OAuth) with a client registered by hand at its sign-in server. Absent:
 * a server that asks for sign-in is registered with automatically (client metadata document or
 * dynamic registration), when its sign-in server allows it.
 */
export const OAuthSettingsSchema = z.strictObject({
  clientId: z.string().trim().min(1, 'must not be empty').max(512, 'must be at most 512 characters'),
  /** For a confidential client; a secret like the headers' (masked in the window, never logged). */
  clientSecret: z.string().min(1, 'must not be empty').optional(),
  /** Scopes to ask for, space-separated, when the server does not say which. */
  scope: z.string().trim().max(1024, 'must be at most 1024 characters').optional(),
});

export type OAuthSettings = z.infer<typeof OAuthSettingsSchema>;

export const RemoteServerSettingsSchema = z.object({
  ...ServerCommon,
  ...FromCatalogue,
  transport: z.enum(['sse', 'streamable-http']),
  url: HttpUrlSchema,
  headers: HeadersSchema.default({}),
  oauth: OAuthSettingsSchema.optional(),
});

/** Web services served as tools (`service-settings.ts`): request tools, OpenAPI, Coze, Dify, n8n, Home Assistant. */
const services = serviceShapes(ServerCommon, HttpUrlSchema);
export const HttpApiSettingsSchema = services.httpApi;
export const OpenApiSettingsSchema = services.openapi;
export const CozeSettingsSchema = services.coze;
export const DifySettingsSchema = services.dify;
export const N8nSettingsSchema = services.n8n;
export const HomeAssistantSettingsSchema = services.homeAssistant;

export const ServerSettingsSchema = z.discriminatedUnion('transport', [
  StdioServerSettingsSchema,
  RemoteServerSettingsSchema,
  HttpApiSettingsSchema,
  OpenApiSettingsSchema,
  CozeSettingsSchema,
  DifySettingsSchema,
  N8nSettingsSchema,
  HomeAssistantSettingsSchema,
]);

export const ToolSettingsSchema = z.object({
  enabled: z.boolean().default(true),
  /** Replaces the server's description when serving to xiaozhi. */
  description: z.string().optional(),
});

/** Per-tool switches and description overrides: tools[serverName][toolName]. A tool without an entry is on. */
const ToolSwitchesSchema = z.record(KeyNameSchema, z.record(KeyNameSchema, ToolSettingsSchema));

/**
 * A named choice of servers and tools. Every consumer (an endpoint, a local client) sees the
 * catalog through one. `id` defaults to the name, so a hand-written config can name sets only.
 */
export const ToolSetSchema = z.object({
  id: ToolSetIdSchema.optional(),
  name: NameSchema,
  /** Every server (now and later), or only the servers named. */
  servers: z.union([z.literal('all'), z.array(z.string())]).default('all'),
  tools: ToolSwitchesSchema.default({}),
});

interface ToolSetShape {
  id: string;
  name: string;
  servers: 'all' | string[];
  tools: z.infer<typeof ToolSwitchesSchema>;
}

const defaultToolSet = (): ToolSetShape => ({ id: DEFAULT_TOOL_SET, name: DEFAULT_TOOL_SET, servers: 'all', tools: {} });

/** Sets with their ids filled in, and the default set always present (first). */
const ToolSetsSchema = z
  .array(ToolSetSchema)
  .default([])
  .transform((sets): ToolSetShape[] => {
    const withIds = sets.map((set) => ({ ...set, id: set.id ?? set.name }));
    return withIds.some((set) => set.id === DEFAULT_TOOL_SET) ? withIds : [defaultToolSet(), ...withIds];
  });

/** The default port of the local MCP server: fixed, so the entries written into clients keep working. */
export const DEFAULT_LOCAL_SERVER_PORT = 18790;

/** A bearer token a client can send: an HTTP header carries printable ASCII, and `Bearer T` ends at a space. */
export const SENDABLE_TOKEN = /^[\x21-\x7e]+$/;
export const SENDABLE_TOKEN_RULE = 'must be letters, digits and punctuation without spaces (clients send it in an HTTP header)';

/** `/mcp/<id>` names a local client (cursor, claude-desktop, …) so it can have its own tool set. */
export const LOCAL_CLIENT_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export const LocalServerSettingsSchema = z.object({
  /** Off by default: serving tools to other programs is the user's choice. */
  enabled: z.boolean().default(false),
  port: z.number().int().min(0).max(65535).default(DEFAULT_LOCAL_SERVER_PORT),
  /** Loopback unless the user explicitly asks otherwise. */
  host: z.string().trim().min(1).default('127.0.0.1'),
  /** The bearer token clients must send; generated when the server is first turned on. (A short one is warned about, not refused: the window sees it masked.) */
  // The window gets it masked ("abcd…(redacted)"), which must still parse there; the engine never keeps a masked value.
  token: z
    .string()
    .min(1)
    .refine((t) => SENDABLE_TOKEN.test(t) || t.endsWith(MASK_MARKER), SENDABLE_TOKEN_RULE)
    .optional(),
  /** The set served to clients without a choice of their own (and at /mcp). */
  toolSet: ToolSetIdSchema.default(DEFAULT_TOOL_SET),
  /** Each local client's own set, by client id. */
  clients: z
    .record(z.string().regex(LOCAL_CLIENT_ID, 'must be lowercase letters, digits, - or _'), z.object({ toolSet: ToolSetIdSchema }))
    .default({}),
  /** A session with no request and no open stream for this long is released (its client vanished). */
  sessionIdleMs: z.number().int().min(50).max(86_400_000).default(600_000),
});

export const NamingPolicySchema = z.enum(['auto', 'always-prefix']);

export const LimitsSchema = z.object({
  /** Largest JSON-RPC message we send to an endpoint, in bytes (xiaozhi: 8192). */
  maxMessageBytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(8192),
  /** Default per-call timeout toward a server. */
  callTimeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * The bound of a call that may go on in the background (an endpoint's, answered "still working"
   * past its caller's patience; one the window allowed): past it, it is cancelled and its task says so.
   * A server's own `callTimeoutMs` still wins.
   */
  backgroundTimeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(24 * 3_600_000)
    .default(30 * 60_000),
  /**
   * While servers are still starting, a `tools/list` waits up to this long from their start, so a
   * broker that lists once (the self-hosted server) gets every tool; keep it inside xiaozhi's own
   * request timeout (30 s self-hosted) for that. The commands that look at servers (`tools`,
   * `servers`, `call`) wait this long with no server coming up: a machine that starts many servers
   * slowly may need more (up to 10 minutes).
   */
  startGraceMs: z.number().int().min(0).max(600_000).default(20_000),
  /** Largest frame accepted from an endpoint; a bigger one ends that connection (WebSocket 1009). */
  maxIncomingBytes: z
    .number()
    .int()
    .min(16 * 1024)
    .max(256 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  /**
   * What an endpoint can be served before xiaozhi struggles: a self-hosted server hung past ~25
   * tools, and 8 KB is one tools/list message; past either the window warns and suggests router mode.
   */
  budgetTools: z.number().int().min(1).max(10_000).default(25),
  budgetBytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(8192),
});

export const ConnectionSettingsSchema = z.object({
  // A half-open socket is found within interval + timeout (30 s), well inside 45 s.
  // Upper bounds keep timers sane: past 2^31 ms, Node fires them at once (a ping storm).
  heartbeatIntervalMs: z.number().int().min(50).max(600_000).default(20_000),
  heartbeatTimeoutMs: z.number().int().min(50).max(120_000).default(10_000),
  connectTimeoutMs: z.number().int().min(50).max(120_000).default(15_000),
  reconnectBaseMs: z.number().int().min(10).max(600_000).default(500),
  reconnectMaxMs: z.number().int().min(10).max(3_600_000).default(60_000),
  /** A session that stayed up this long resets the backoff. */
  stableAfterMs: z.number().int().min(0).max(86_400_000).default(60_000),
  /**
   * A self-hosted relay forgets a connection without a word when another to the same endpoint
   * closes: it is asked, as xiaozhi asks it, whether it still routes to us (soon after connecting,
   * then this often), and a forgotten connection is made again. 0: never asked.
   */
  relayCheckMs: z.number().int().min(0).max(86_400_000).default(300_000),
});

export const SettingsSchema = z
  .object({
    version: z.literal(3).default(3),
    endpoints: z.array(EndpointSettingsSchema).default([]),
    servers: z.array(ServerSettingsSchema).default([]),
    /** The default set ("all") is always there; its switches are the Tools page's. */
    toolSets: ToolSetsSchema,
    localServer: LocalServerSettingsSchema.default(LocalServerSettingsSchema.parse({})),
    naming: NamingPolicySchema.default('auto'),
    limits: LimitsSchema.default(LimitsSchema.parse({})),
    connection: ConnectionSettingsSchema.default(ConnectionSettingsSchema.parse({})),
    modelscope: z.object({ apiKey: z.string().optional() }).default({}),
    updates: UpdateSettingsSchema.default({ enabled: true }),
    /** Where packages and runtimes come from (until the user chooses: decided by the place, see `unchosenPreset`). */
    mirrors: MirrorSettingsSchema.default({}),
    /** How a person confirms an "ask first" call by voice: their PIN. */
    confirmation: ConfirmationSettingsSchema.default({}),
    /** The chat model "Try a sentence" asks (and, with consent, servers' sampling by voice); absent: none. */
    model: ModelSettingsSchema.optional(),
    /** Sentences a user would say, per tool: what "check all" tries. */
    sentences: SentenceSetsSchema.default({}),
    ui: z
      .object({
        language: z.enum(['system', 'zh-CN', 'en']).default('system'),
        theme: z.enum(['system', 'light', 'dark']).default('system'),
        startHidden: z.boolean().default(false),
      })
      .default({ language: 'system', theme: 'system', startHidden: false }),
  })
  .superRefine(
    (settings, ctx) => {
      // Runs even when other fields are invalid (`when`), so one pass reports every problem; the
      // values may then be anything, hence the guards.
      const duplicates = (list: unknown, key: 'name' | 'id', where: 'servers' | 'endpoints', what: string) => {
        const seen = new Map<unknown, number>();
        (Array.isArray(list) ? list : []).forEach((item: unknown, index) => {
          const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[key] : undefined;
          if (typeof value !== 'string') return;
          const previous = seen.get(value);
          if (previous !== undefined)
            ctx.addIssue({ code: 'custom', path: [where, index, key], message: `duplicates the ${what} of ${where}[${previous}]` });
          else seen.set(value, index);
        });
      };
      duplicates(settings.servers, 'name', 'servers', 'name');
      duplicates(settings.endpoints, 'id', 'endpoints', 'id');
      // The tool set checks read deeper: only once the shapes they read are right.
      const objects = (v: unknown) => Array.isArray(v) && v.every((item) => typeof item === 'object' && item !== null);
      const local = settings.localServer as unknown as { clients?: unknown } | undefined;
      if (objects(settings.toolSets) && objects(settings.endpoints) && typeof local?.clients === 'object' && local.clients !== null)
        checkToolSets(settings, ctx);
    },
    { when: () => true },
  );

type ToolSetOutput = z.output<typeof ToolSetsSchema>[number];

/** Set ids and names are unique, the default set serves every server, and every reference names a set. */
function checkToolSets(
  settings: {
    toolSets: ToolSetOutput[];
    endpoints: { toolSet?: string | undefined }[];
    localServer: z.output<typeof LocalServerSettingsSchema>;
  },
  ctx: z.RefinementCtx,
): void {
  const setIds = new Map<string, number>();
  const setNames = new Map<string, number>();
  settings.toolSets.forEach((set, index) => {
    const previousId = setIds.get(set.id);
    if (previousId !== undefined)
      ctx.addIssue({ code: 'custom', path: ['toolSets', index, 'id'], message: `duplicates the id of toolSets[${previousId}]` });
    const previousName = setNames.get(set.name);
    if (previousName !== undefined)
      ctx.addIssue({ code: 'custom', path: ['toolSets', index, 'name'], message: `duplicates the name of toolSets[${previousName}]` });
    setIds.set(set.id, index);
    setNames.set(set.name, index);
    if (set.id === DEFAULT_TOOL_SET && set.servers !== 'all') {
      ctx.addIssue({ code: 'custom', path: ['toolSets', index, 'servers'], message: 'the default set "all" serves every server' });
    }
  });
  const known = (id: string | undefined) => id === undefined || setIds.has(id);
  const unknown = (id: string) => `no tool set has the id "${id}"`;
  settings.endpoints.forEach((endpoint, index) => {
    if (!known(endpoint.toolSet))
      ctx.addIssue({ code: 'custom', path: ['endpoints', index, 'toolSet'], message: unknown(endpoint.toolSet as string) });
  });
  if (!known(settings.localServer.toolSet))
    ctx.addIssue({ code: 'custom', path: ['localServer', 'toolSet'], message: unknown(settings.localServer.toolSet) });
  for (const [client, choice] of Object.entries(settings.localServer.clients)) {
    if (!known(choice.toolSet))
      ctx.addIssue({ code: 'custom', path: ['localServer', 'clients', client, 'toolSet'], message: unknown(choice.toolSet) });
  }
}

export type EndpointSettings = z.infer<typeof EndpointSettingsSchema>;
export type StdioServerSettings = z.infer<typeof StdioServerSettingsSchema>;
export type RemoteServerSettings = z.infer<typeof RemoteServerSettingsSchema>;
export type ServerSettings = z.infer<typeof ServerSettingsSchema>;
/** An MCP server (stdio, SSE, streamable HTTP), as opposed to a web service served as tools. */
export type McpServerSettings = StdioServerSettings | RemoteServerSettings;
export type ServiceSettings = Exclude<ServerSettings, McpServerSettings>;
export const isMcpServer = (server: ServerSettings): server is McpServerSettings =>
  server.transport === 'stdio' || server.transport === 'sse' || server.transport === 'streamable-http';

/** What a server runs or reaches, in one line: its command, its URL, or where a service sends its requests. */
export function serverTarget(server: ServerSettings): string {
  if (server.transport === 'stdio') return [server.command, ...server.args].join(' ');
  return isMcpServer(server) ? server.url : serviceTarget(server);
}
export type ToolSettings = z.infer<typeof ToolSettingsSchema>;
export type ToolSwitches = z.infer<typeof ToolSwitchesSchema>;
export type ToolSet = ToolSetOutput;
export type LocalServerSettings = z.infer<typeof LocalServerSettingsSchema>;
export type NamingPolicy = z.infer<typeof NamingPolicySchema>;
export type ToolMode = z.infer<typeof ToolModeSchema>;
export type ServedMode = z.infer<typeof ServedModeSchema>;
export type Limits = z.infer<typeof LimitsSchema>;
export type ConnectionSettings = z.infer<typeof ConnectionSettingsSchema>;
export type UpdateSettings = z.infer<typeof UpdateSettingsSchema>;
export type Settings = z.infer<typeof SettingsSchema>;
export type SettingsInput = z.input<typeof SettingsSchema>;

export function defaultSettings(): Settings {
  return SettingsSchema.parse({});
}

/** The set an endpoint or client serves, by id; the default set when the id names none. */
export function findToolSet(settings: Pick<Settings, 'toolSets'>, id: string | undefined): ToolSet {
  return (settings.toolSets.find((set) => set.id === (id ?? DEFAULT_TOOL_SET)) ??
    settings.toolSets.find((set) => set.id === DEFAULT_TOOL_SET)) as ToolSet;
}

/** The default set's switches: the Tools page's, and xiaozhi-client's `mcpServerConfig`. */
export function defaultToolSwitches(settings: Pick<Settings, 'toolSets'>): ToolSwitches {
  return findToolSet(settings, DEFAULT_TOOL_SET).tools;
}
