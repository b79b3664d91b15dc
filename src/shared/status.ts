import { z } from 'zod';

import { lazySchema } from './lazy-schema';
import { ProblemSchema } from './problem';
import { ServedSummarySchema } from './served';
import { SERVICE_KINDS } from './service-settings';

export const EndpointStateSchema = lazySchema(() => z.enum(['disabled', 'disconnected', 'connecting', 'connected', 'waiting']));

export const EndpointStatusSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    /** Always redacted: the token never leaves the core. */
    url: z.string(),
    enabled: z.boolean(),
    state: EndpointStateSchema,
    /** When the current state began (ms since epoch). */
    since: z.number(),
    /** When the next attempt happens, while waiting. */
    retryAt: z.number().optional(),
    lastError: z.string().optional(),
    /** The same failure as a code with parameters, for the UI to word (DNS, refused, TLS, 401…). */
    lastErrorCause: ProblemSchema.optional(),
    /** Failed attempts since the last stable session. */
    attempts: z.number().int(),
    /** What this endpoint is served (tool mode, tools, bytes). */
    served: ServedSummarySchema.optional(),
    /** The id of the tool set it serves. */
    toolSet: z.string().optional(),
    /** While connected: how many tools xiaozhi read in its latest tools/list, and when (none: it has not listed them). */
    toolsRead: z.object({ count: z.number().int(), at: z.number() }).optional(),
  }),
);

export const ServerStateSchema = lazySchema(() => z.enum(['stopped', 'starting', 'running', 'restarting', 'failed']));

/** A tool a server listed that is not served, and why: a code the window words (open, like a Problem's). */
export const SkippedToolSchema = lazySchema(() =>
  z.object({
    /** Its name, when it has one that is text. */
    name: z.string().optional(),
    /** Where it is in the server's list, from 1 (how to find a tool without a usable name). */
    position: z.number().int(),
    /** duplicate, noName, badName, notTool, badSchema, notObject, tooDeep, schemaTooLarge, listTooLarge, invalid, noSuchAction or noSuchOperation. */
    reason: z.string(),
    /** For `invalid`: where in the tool's definition (a dotted path). */
    path: z.string().optional(),
    /** For `duplicate`: how many times the server listed the name. */
    times: z.number().int().optional(),
    /** For a web service's `noSuchAction`/`noSuchOperation` (a name the user misspelled): the name meant. */
    near: z.string().optional(),
  }),
);

export const ServerStatusSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    transport: z.enum(['stdio', 'sse', 'streamable-http', ...SERVICE_KINDS]),
    enabled: z.boolean(),
    state: ServerStateSchema,
    since: z.number(),
    toolCount: z.number().int(),
    restarts: z.number().int(),
    lastError: z.string().optional(),
    lastErrorCause: ProblemSchema.optional(),
    /** A failure whose own words name a known cause (a folder gone, no network): the window says it first, the words below. */
    cause: ProblemSchema.optional(),
    /** While it waits to try again by itself (restarting, between attempts): when the next try starts. */
    retryAt: z.number().optional(),
    /** Last lines the server printed on stderr during its latest attempt (for a failing server, why). */
    stderrTail: z.array(z.string()),
    /** While it starts: a first run of a package runner (npx, uvx…) downloading and installing its package. */
    installing: z.object({ runner: z.string(), package: z.string().optional() }).optional(),
    pid: z.number().int().optional(),
    /**
     * For a program of a runtime (npx, uvx…): whose runtime runs it, the user's own or the one the app
     * fetched into its data folder (with its version), and while the app fetches it, how far it got.
     */
    runtime: z
      .object({
        name: z.enum(['node', 'uv']),
        from: z.enum(['yours', 'app']),
        version: z.string().optional(),
        fetching: z.object({ percent: z.number().min(0).max(100).optional() }).optional(),
      })
      .optional(),
    /** Tools it listed that are not served (the first few), and how many there were in all. */
    skippedTools: z.array(SkippedToolSchema).optional(),
    skippedToolCount: z.number().int().optional(),
  }),
);

export const CatalogToolSchema = lazySchema(() =>
  z.object({
    /** The name xiaozhi sees. */
    name: z.string(),
    server: z.string(),
    originalName: z.string(),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
    enabled: z.boolean(),
    /** Bytes this tool takes in tools/list. */
    bytes: z.number().int(),
    /** The server's own description, when the user replaced it with an override. */
    originalDescription: z.string().optional(),
    /** The tool says it can destroy something (`destructiveHint`): by voice it asks first unless set otherwise. */
    destructive: z.boolean().optional(),
  }),
);

export const CatalogSummarySchema = lazySchema(() =>
  z.object({
    toolCount: z.number().int(),
    bytes: z.number().int(),
    pages: z.number().int(),
    /** Of `toolCount`, the app's own tools (search, confirm, tasks): not the user's, never counted as theirs. */
    appTools: z.number().int().optional(),
  }),
);

export const ToolSetSummarySchema = lazySchema(() =>
  CatalogSummarySchema.extend({
    id: z.string(),
    name: z.string(),
  }),
);

export const LocalSessionSchema = lazySchema(() =>
  z.object({
    /** The first characters of the session id (enough to tell sessions apart). */
    id: z.string(),
    /** The client id from the URL path (`/mcp/cursor`), or '' for `/mcp`. */
    client: z.string(),
    /** What the client called itself when it initialised (clientInfo.name). */
    clientInfo: z.string(),
    toolSet: z.string(),
    since: z.number(),
    calls: z.number().int(),
  }),
);

export const LocalServerStatusSchema = lazySchema(() =>
  z.object({
    state: z.enum(['off', 'starting', 'listening', 'failed']),
    /** The base URL clients use, e.g. http://127.0.0.1:18790/mcp (no token). */
    url: z.string().optional(),
    lastError: z.string().optional(),
    /** Why it could not listen (a port in use…), for each UI to word with what to do. */
    lastErrorCause: ProblemSchema.optional(),
    sessions: z.array(LocalSessionSchema),
    /** What this run's command line sets over the saved settings (`--mcp-port`…): the window says why they differ. */
    overridden: z.array(z.enum(['enabled', 'port', 'host', 'token'])).optional(),
  }),
);

export const BridgeStateSchema = lazySchema(() =>
  z.object({
    running: z.boolean(),
    endpoints: z.array(EndpointStatusSchema),
    servers: z.array(ServerStatusSchema),
    /** The default set's catalog. */
    catalog: CatalogSummarySchema,
    /** Every tool set's size (the default set first). */
    toolSets: z.array(ToolSetSummarySchema).optional(),
    localServer: LocalServerStatusSchema.optional(),
  }),
);

export const LogLevelSchema = lazySchema(() => z.enum(['debug', 'info', 'warn', 'error']));

export const LogEntrySchema = lazySchema(() =>
  z.object({
    seq: z.number().int(),
    time: z.number(),
    level: LogLevelSchema,
    /** `app`, `endpoint:<name>` or `server:<name>` */
    source: z.string(),
    /** In English (for the log file, the CLI and a copied log). */
    message: z.string(),
    /** What the line says as a code with parameters, for the window to word in its language. */
    problem: ProblemSchema.optional(),
    /** The failure the line reports (a restart's, a crash loop's), worded into the problem's `{cause}`. */
    cause: ProblemSchema.optional(),
    /** A server program's own output (its stderr), verbatim but for secrets: not the app speaking. */
    output: z.literal(true).optional(),
  }),
);

/** `errorText`: answered as a success, but its text is an error message (see logs/error-text.ts). */
export const CallOutcomeSchema = lazySchema(() => z.enum(['ok', 'error', 'timeout', 'cancelled', 'held', 'errorText']));

/**
 * Calls counted by what became of them, the same way everywhere (Activity, the Tools page, tool sets):
 * `errorText` answers are neither a success nor a failure; a held call is not counted until it runs.
 */
export const CallCountSchema = lazySchema(() => z.object({ ok: z.number().int(), failed: z.number().int(), errorText: z.number().int() }));
export type CallCount = z.infer<typeof CallCountSchema>;

/** `count` with one more call that came to `outcome` (a new object: the window's store keeps them as they were). */
export function countedCall(count: CallCount | undefined, outcome: z.infer<typeof CallOutcomeSchema>): CallCount {
  const base = count ?? { ok: 0, failed: 0, errorText: 0 };
  if (outcome === 'ok') return { ...base, ok: base.ok + 1 };
  if (outcome === 'errorText') return { ...base, errorText: base.errorText + 1 };
  return { ...base, failed: base.failed + 1 };
}

/** Where a held call was answered: the desktop window, the web UI, or by voice with the PIN. */
export const ConfirmedInSchema = lazySchema(() => z.enum(['window', 'webUi', 'voice']));

/** A call held for the person's confirmation: what became of it (the row is updated in place), and where it was answered. */
export const CallConfirmationSchema = lazySchema(() =>
  z.object({
    state: z.enum(['waiting', 'allowed', 'denied', 'expired', 'withdrawn']),
    in: ConfirmedInSchema.optional(),
  }),
);

export const CallRecordSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    time: z.number(),
    /** Endpoint name, local client name, or `ui` for a call made from the window. */
    caller: z.string(),
    tool: z.string(),
    originalTool: z.string(),
    server: z.string(),
    arguments: z.string(),
    durationMs: z.number(),
    outcome: CallOutcomeSchema,
    result: z.string(),
    /** The short id of the background task this call became (answered before it finished). */
    task: z.string().optional(),
    /** The connection the call came on closed while it ran; it went on as `task`. */
    disconnected: z.boolean().optional(),
    /** Held for confirmation: the same row (same id) is sent again when it is allowed, denied or expires. */
    confirmation: CallConfirmationSchema.optional(),
    /** A failed call whose text names a known cause (no network, a key refused…): the window says it first. */
    cause: ProblemSchema.optional(),
  }),
);

/** A tool call answered before it finished (or one reporting progress), as the window lists it. */
export const BackgroundTaskSchema = lazySchema(() =>
  z.object({
    /** Short and speakable ("3F"); absent while the call still runs inside the caller's patience. */
    id: z.string().optional(),
    /** The call's own key, stable from its start (the window's list key). */
    key: z.number().int(),
    tool: z.string(),
    caller: z.string(),
    state: z.enum(['running', 'done', 'failed', 'cancelled']),
    startedAt: z.number(),
    finishedAt: z.number().optional(),
    /** The last progress the server reported. */
    progress: z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() }).optional(),
    /** The result's text (bounded), once finished. */
    result: z.string().optional(),
    /** Gone from the list: finished within the caller's patience, or past the bounds. */
    removed: z.boolean().optional(),
  }),
);

export type EndpointState = z.infer<typeof EndpointStateSchema>;
export type EndpointStatus = z.infer<typeof EndpointStatusSchema>;
export type ServerState = z.infer<typeof ServerStateSchema>;
export type ServerStatus = z.infer<typeof ServerStatusSchema>;
export type ServerRuntime = NonNullable<ServerStatus['runtime']>;
export type SkippedTool = z.infer<typeof SkippedToolSchema>;
export type CatalogTool = z.infer<typeof CatalogToolSchema>;
export type CatalogSummary = z.infer<typeof CatalogSummarySchema>;
export type BridgeState = z.infer<typeof BridgeStateSchema>;
export type ToolSetSummary = z.infer<typeof ToolSetSummarySchema>;
export type LocalSession = z.infer<typeof LocalSessionSchema>;
export type LocalServerStatus = z.infer<typeof LocalServerStatusSchema>;
export type LogLevel = z.infer<typeof LogLevelSchema>;
export type LogEntry = z.infer<typeof LogEntrySchema>;
export type CallOutcome = z.infer<typeof CallOutcomeSchema>;
export type BackgroundTask = z.infer<typeof BackgroundTaskSchema>;
export type CallRecord = z.infer<typeof CallRecordSchema>;
export type ConfirmedIn = z.infer<typeof ConfirmedInSchema>;
export type CallConfirmation = z.infer<typeof CallConfirmationSchema>;
