import { z } from 'zod';

import { ActivitySampleSchema } from './activity';
import { CatalogueSchema } from './catalogue';
import { PinSchema } from './confirmation-pin';
import { ConfirmationAnswerSchema, PendingConfirmationSchema } from './confirmations';
import { ElicitValueSchema, PendingElicitationSchema } from './elicitations';
import { EndpointTestSchema } from './endpoint-test';
import { EndpointUrlCheckSchema } from './endpoint-url';
import { HostInfoSchema } from './host';
import { ExportFormatSchema, ImportChoicesSchema, ImportPreviewSchema, ImportResultSchema, KnownClientSchema } from './import';
import { lazySchema } from './lazy-schema';
import { MirrorSettingsSchema } from './mirrors';
import { modelCommands, modelEvents } from './model-api';
import { OpenApiOutlineSchema } from './openapi-selection';
import { patchOf } from './patch-schema';
import { PathCheckSchema, PathValueKindSchema } from './path-values';
import { ProblemSchema } from './problem';
import { RuntimeFetchSchema, RuntimeNameSchema } from './runtime-fetch';
import { ServedCatalogSchema, ToolSearchHitSchema } from './served';
import {
  ConnectionSettingsSchema,
  EndpointSettingsSchema,
  KeyNameSchema,
  LimitsSchema,
  NamingPolicySchema,
  ServerSettingsSchema,
  SettingsSchema,
  ToolModeSchema,
  ToolPolicySchema,
  UpdateMirrorSchema,
} from './settings';
import { BackgroundTaskSchema, BridgeStateSchema, CallCountSchema, CallRecordSchema, CatalogToolSchema, LogEntrySchema } from './status';
import { toolSetCommands } from './tool-set-api';
import { UpdateStatusSchema } from './updates';

/**
 * The one contract between the engine and any UI. Each command has a zod schema for its input and
 * output; carriers (Electron IPC, the headless WebSocket) validate inputs on the receiving side.
 */
const command = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });

const Void = lazySchema(() => z.void());
const ServerName = lazySchema(() => z.object({ name: z.string().min(1) }));
const EndpointId = lazySchema(() => z.object({ id: z.string().min(1) }));
/** Which tool set a switch belongs to; the default set when absent. */
const InSet = { toolSet: lazySchema(() => z.string().min(1).optional()) };

export const ToolCallOutputSchema = lazySchema(() =>
  z.object({
    /** The text xiaozhi reads: the first (and only) text item, shaped to fit. */
    text: z.string(),
    isError: z.boolean(),
    durationMs: z.number(),
    /** Size of the tools/call response message as an endpoint would receive it. */
    bytes: z.number().int(),
    /** Why the call failed before reaching the tool (unknown, off, server down, timeout), for the UI to word. */
    error: ProblemSchema.optional(),
  }),
);

/** The bridge as a whole: its state, its settings, the catalog, start and stop. */
export const stateCommands = {
  getState: command(Void, BridgeStateSchema),
  /** Settings with every secret redacted (endpoint tokens, secret headers and env values). */
  getSettings: command(Void, SettingsSchema),
  getCatalog: command(
    Void,
    lazySchema(() => z.array(CatalogToolSchema)),
  ),
  start: command(Void, Void),
  stop: command(Void, Void),
} as const;

export const endpointCommands = {
  addEndpoint: command(
    lazySchema(() => z.object({ name: z.string().min(1), url: z.string().min(1) })),
    EndpointSettingsSchema.omit({ url: true }),
  ),
  updateEndpoint: command(
    lazySchema(() =>
      EndpointId.extend({
        name: z.string().min(1).optional(),
        url: z.string().min(1).optional(),
        enabled: z.boolean().optional(),
        toolSet: z.string().min(1).optional(),
        /** How long its caller waits for a call; null: read from the URL. */
        patience: EndpointSettingsSchema.shape.patience.nullable(),
      }),
    ),
    Void,
  ),
  removeEndpoint: command(EndpointId, Void),
  /**
   * A URL as pasted, before it is added (or given to endpoint `id`): what would be taken off it,
   * why it is refused, or which endpoint already has that address and token.
   */
  checkEndpointUrl: command(
    lazySchema(() => z.object({ url: z.string().max(8192), id: z.string().min(1).optional() })),
    EndpointUrlCheckSchema,
  ),
  /** The full URL, token included: only when the user asks to see it. */
  revealEndpointUrl: command(
    EndpointId,
    lazySchema(() => z.string()),
  ),
  /** Connects once (to a saved endpoint, or to a URL not saved yet) and reports each step. */
  testEndpoint: command(
    lazySchema(() =>
      z
        .object({ id: z.string().min(1).optional(), url: z.string().min(1).max(4096).optional() })
        .refine((v) => v.id !== undefined || v.url !== undefined, 'give an endpoint id or a url'),
    ),
    EndpointTestSchema,
  ),
  /** Serve every tool, or find_tools and call_tool (router mode) with these tools pinned beside them; no reconnect. */
  setEndpointTools: command(EndpointId.extend({ toolMode: ToolModeSchema.optional(), pinned: EndpointSettingsSchema.shape.pinned }), Void),
  /** Exactly what this endpoint's model sees in tools/list, page by page. */
  getServedTools: command(EndpointId, ServedCatalogSchema),
  /** The router's search over the enabled tools, as find_tools would answer it. */
  searchTools: command(
    lazySchema(() => z.object({ query: z.string().max(1000), limit: z.number().int().min(1).max(10).optional() })),
    lazySchema(() => z.array(ToolSearchHitSchema)),
  ),
} as const;

export const serverCommands = {
  addServer: command(ServerSettingsSchema, Void),
  /** Replaces the server called `name` (which may be renamed by `server.name`). */
  updateServer: command(ServerName.extend({ server: ServerSettingsSchema }), Void),
  removeServer: command(ServerName, Void),
  startServer: command(ServerName, Void),
  stopServer: command(ServerName, Void),
  restartServer: command(ServerName, Void),
  /**
   * Starts signing in to a remote server (OAuth): the sign-in page's address, and whether the app
   * opened it in the system browser (the desktop app) or the caller should (the web UI). The server
   * connects once the browser comes back. A sign-in that cannot start (no sign-in offered, no
   * registration, another issuer) answers its problem, for the window to say in its own language.
   */
  signIn: command(
    ServerName,
    lazySchema(() => z.object({ url: z.string().url(), opened: z.boolean() }).or(z.object({ problem: ProblemSchema }))),
  ),
  /**
   * Reads an OpenAPI document (a URL, or a file: a relative path from the config file's folder) for the
   * web service dialog to choose its operations from: its title, tags and operations without their
   * schemas, or the problem that keeps it from being used.
   */
  readOpenApi: command(
    lazySchema(() => z.object({ spec: z.string().trim().min(1).max(2000) })),
    lazySchema(() => OpenApiOutlineSchema.or(z.object({ problem: ProblemSchema }))),
  ),
} as const;

/** A tool's switch and description, in a tool set. */
export const toolCommands = {
  setToolEnabled: command(
    lazySchema(() => z.object({ server: KeyNameSchema, tool: KeyNameSchema, enabled: z.boolean(), ...InSet })),
    Void,
  ),
  setServerToolsEnabled: command(
    lazySchema(() => z.object({ server: KeyNameSchema, enabled: z.boolean(), ...InSet })),
    Void,
  ),
  setToolDescription: command(
    lazySchema(() => z.object({ server: KeyNameSchema, tool: KeyNameSchema, description: z.string().nullable(), ...InSet })),
    Void,
  ),
  /**
   * How a tool runs when xiaozhi calls it (run, ask first, never), or every tool of a server when no
   * tool is named; null goes back to the default (a server's setting, else ask first for a tool that
   * says it destroys something). Saved in the server's settings: it holds in every tool set.
   */
  setToolPolicy: command(
    lazySchema(() => z.object({ server: KeyNameSchema, tool: KeyNameSchema.optional(), policy: ToolPolicySchema.nullable() })),
    Void,
  ),
} as const;

export const preferenceCommands = {
  updatePreferences: command(
    lazySchema(() =>
      z.object({
        naming: NamingPolicySchema.optional(),
        limits: patchOf(LimitsSchema).optional(),
        connection: patchOf(ConnectionSettingsSchema).optional(),
        ui: patchOf(SettingsSchema.shape.ui.unwrap()).optional(),
        /** Only what is given changes (no defaults here); `mirrorUrl: null` goes back to the default feed. */
        updates: z.object({ enabled: z.boolean().optional(), mirrorUrl: UpdateMirrorSchema.nullable().optional() }).optional(),
        /** Replaces the download sources as a whole. */
        mirrors: MirrorSettingsSchema.optional(),
      }),
    ),
    Void,
  ),
} as const;

/** A call from the window, and what the bridge remembers of calls: history, counts, the log. */
export const callCommands = {
  /** Call a tool by its exposed name, exactly as xiaozhi would. */
  callTool: command(
    lazySchema(() => z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).default({}) })),
    ToolCallOutputSchema,
  ),
  getLogs: command(
    lazySchema(() => z.object({ limit: z.number().int().positive().optional() }).default({})),
    lazySchema(() => z.array(LogEntrySchema)),
  ),
  getHistory: command(
    Void,
    lazySchema(() => z.array(CallRecordSchema)),
  ),
  /** Calls per tool since the bridge started (beyond the history's length): counts[server][originalTool]. */
  getToolCounts: command(
    Void,
    lazySchema(() => z.record(z.string(), z.record(z.string(), CallCountSchema))),
  ),
  /** Every call of the last week or so (time, tool, caller, outcome, duration), kept across restarts: the activity page. */
  getActivity: command(
    Void,
    lazySchema(() => z.array(ActivitySampleSchema)),
  ),
} as const;

/** Calls answered before they finished (long calls), going on in the background. */
export const taskCommands = {
  getTasks: command(
    Void,
    lazySchema(() => z.array(BackgroundTaskSchema)),
  ),
  /** Stops a task still running (the server is told); by the list's key. */
  cancelTask: command(
    lazySchema(() => z.object({ key: z.number().int() })),
    Void,
  ),
} as const;

/** Calls by voice held until the user allows them ("ask first"): the window's Allow and Deny. */
export const confirmationCommands = {
  getConfirmations: command(
    Void,
    lazySchema(() => z.array(PendingConfirmationSchema)),
  ),
  /** Allow runs the call in the background (its result a finished task); Deny refuses it. Both are in the history. */
  answerConfirmation: command(
    lazySchema(() => z.object({ key: z.number().int(), allow: z.boolean() })),
    ConfirmationAnswerSchema,
  ),
  /**
   * The person's confirmation PIN, to show them (made now if there is none). Only the window and the
   * web UI ask; the model is then no longer told where to find it. Never in settings as a UI sees them.
   */
  revealConfirmationPin: command(
    Void,
    lazySchema(() => z.object({ pin: z.string() })),
  ),
  /** The user's own PIN (4 to 8 digits, or a word); null makes a new one. */
  setConfirmationPin: command(
    lazySchema(() => z.object({ pin: PinSchema.nullable() })),
    Void,
  ),
} as const;

/** A server's questions during a call (MCP elicitation), answered in the window. */
export const elicitationCommands = {
  getElicitations: command(
    Void,
    lazySchema(() => z.array(PendingElicitationSchema)),
  ),
  /** Sends the filled-in form (accept) or declines; false when it was no longer waiting. Wrong values are refused, saying which. */
  answerElicitation: command(
    lazySchema(() =>
      z.object({
        key: z.number().int(),
        action: z.enum(['accept', 'decline']),
        content: z.record(z.string(), ElicitValueSchema).optional(),
      }),
    ),
    lazySchema(() => z.boolean()),
  ),
} as const;

export const catalogueCommands = {
  /** Servers to add in one click: the shipped list, plus the MCP registry's (read now if asked, or if a day old). */
  getCatalogue: command(
    lazySchema(() => z.object({ refresh: z.enum(['never', 'ifStale', 'now']).optional() }).default({})),
    CatalogueSchema,
  ),
  /**
   * Folder and file values before a catalogue server is saved: each resolved on the engine's computer
   * (a relative name from the user's home folder, given as `home`) and checked (there, a folder…).
   */
  checkPathValues: command(
    lazySchema(() => z.object({ values: z.array(z.object({ value: z.string().max(4096), kind: PathValueKindSchema })).max(20) })),
    lazySchema(() => z.object({ home: z.string(), checks: z.array(PathCheckSchema) })),
  ),
  /** The key sent to servers hosted on ModelScope; null removes it. */
  setModelscopeKey: command(
    lazySchema(() => z.object({ apiKey: z.string().trim().min(1).max(4096).nullable() })),
    Void,
  ),
} as const;

/** What the hosting process adds (login item, folders) and its updater. */
export const hostCommands = {
  getHostInfo: command(Void, HostInfoSchema),
  setLaunchAtLogin: command(
    lazySchema(() => z.object({ enabled: z.boolean() })),
    Void,
  ),
  openLogsFolder: command(Void, Void),
  /**
   * The system's folder or file picker, for a catalogue value (the desktop app only: `pathPicker` in
   * the host info): the path picked, or null when the person cancelled. `title` is the value's label,
   * in the window's language; `from` where the picker opens (what the field holds).
   */
  choosePath: command(
    lazySchema(() => z.object({ kind: PathValueKindSchema, title: z.string().max(200), from: z.string().max(4096).optional() })),
    lazySchema(() => z.object({ path: z.string().nullable() })),
  ),

  /** The desktop app's updater ("unsupported" headless and in development runs). */
  getUpdateStatus: command(Void, UpdateStatusSchema),
  /** Checks now (even with automatic checks off); a newer version downloads in the background. */
  checkForUpdates: command(Void, UpdateStatusSchema),
  /** Stops every server, then quits and installs the downloaded update. */
  installUpdate: command(Void, Void),
} as const;

/** Node.js and uv for the servers that need them. */
export const runtimeCommands = {
  /**
   * Downloads a runtime into the app's folder now, from the download sources chosen (checked against the
   * SHA-256 the app carries), then starts the servers that were waiting for it: the version, or why it
   * could not. Progress comes as `runtimeFetch` events. Refused where no folder holds runtimes.
   */
  fetchRuntime: command(
    lazySchema(() => z.object({ runtime: RuntimeNameSchema })),
    lazySchema(() => z.object({ version: z.string() }).or(z.object({ problem: ProblemSchema }))),
  ),
} as const;

export const importExportCommands = {
  /** What importing this file's text would do; changes nothing. `source` is the file name shown. */
  previewImport: command(
    lazySchema(() => z.object({ source: z.string().max(1000), text: z.string().max(4 * 1024 * 1024) })),
    ImportPreviewSchema,
  ),
  /** The same for a file on the bridge's machine (a client found by discoverClients). */
  previewImportFile: command(
    lazySchema(() => z.object({ path: z.string().min(1) })),
    ImportPreviewSchema,
  ),
  /** Applies a preview with the user's choices, all or nothing. */
  applyImport: command(ImportChoicesSchema, ImportResultSchema),
  discoverClients: command(
    Void,
    lazySchema(() => z.array(KnownClientSchema)),
  ),
  /** Our servers as a file other tools read; it contains the real secrets. */
  exportConfig: command(
    lazySchema(() => z.object({ format: ExportFormatSchema })),
    lazySchema(() => z.object({ fileName: z.string(), text: z.string() })),
  ),
} as const;

export const bridgeCommands = {
  ...stateCommands,
  ...endpointCommands,
  ...serverCommands,
  ...toolCommands,
  ...preferenceCommands,
  ...callCommands,
  ...taskCommands,
  ...confirmationCommands,
  ...elicitationCommands,
  ...catalogueCommands,
  ...hostCommands,
  ...runtimeCommands,
  ...importExportCommands,
  ...toolSetCommands,
  ...modelCommands,
} as const;

export const bridgeEvents = {
  status: BridgeStateSchema,
  log: LogEntrySchema,
  catalog: lazySchema(() => z.array(CatalogToolSchema)),
  call: CallRecordSchema,
  /** A file was handed to the app (dropped on the tray, opened with it): here is its preview. */
  importPreview: ImportPreviewSchema,
  /** The updater's status changed (checking, downloading, ready to restart, a problem). */
  update: UpdateStatusSchema,
  /** A long call changed: answered and going on, progressed, finished, or left the list (`removed`). */
  task: BackgroundTaskSchema,
  /** The calls waiting for Allow or Deny, whole, whenever one is held, answered or expires. */
  confirmations: lazySchema(() => z.array(PendingConfirmationSchema)),
  /** A server's questions waiting for the user, whole, whenever one comes, is answered or expires. */
  elicitations: lazySchema(() => z.array(PendingElicitationSchema)),
  /** A runtime download the window asked for: its progress, then done or failed. */
  runtimeFetch: RuntimeFetchSchema,
  ...modelEvents,
} as const;

export type BridgeCommands = typeof bridgeCommands;
export type CommandName = keyof BridgeCommands;
export type CommandInput<K extends CommandName> = z.input<BridgeCommands[K]['input']>;
export type CommandOutput<K extends CommandName> = z.output<BridgeCommands[K]['output']>;
export type EventName = keyof typeof bridgeEvents;
export type EventPayload<K extends EventName> = z.output<(typeof bridgeEvents)[K]>;

/** What a UI holds: every command as an async method, plus event subscriptions. */
export type BridgeApi = {
  [K in CommandName]: (input: CommandInput<K>) => Promise<CommandOutput<K>>;
} & {
  /** Returns the unsubscribe function. */
  on<K extends EventName>(event: K, listener: (payload: EventPayload<K>) => void): () => void;
};

export const commandNames = Object.keys(bridgeCommands) as CommandName[];
export const eventNames = Object.keys(bridgeEvents) as EventName[];
export type ToolCallOutput = z.infer<typeof ToolCallOutputSchema>;
