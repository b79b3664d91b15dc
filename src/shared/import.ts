import { z } from 'zod';

import { lazySchema } from './lazy-schema';
import { ServerSettingsSchema, ToolSettingsSchema } from './settings';

export const ImportFormatSchema = lazySchema(() =>
  z.enum([
    'xiaozhi-tray',
    'xiaozhi-client',
    'xiaozhi-example',
    'claude-desktop',
    'cursor',
    'vscode',
    'windsurf',
    'cline',
    'codex',
    'server-snippet',
    'endpoint-url',
  ]),
);

export const ConflictActionSchema = lazySchema(() => z.enum(['add', 'skip', 'rename', 'replace']));

export const ImportIssueSchema = lazySchema(() =>
  z.object({
    /** JSON path (or TOML key path) in the imported file. */
    path: z.string(),
    line: z.number().int().optional(),
    column: z.number().int().optional(),
    message: z.string(),
  }),
);

export const ImportConflictSchema = lazySchema(() =>
  z.object({
    kind: z.enum(['same-name', 'same-command', 'same-url']),
    /** The name of the server or endpoint it conflicts with. */
    existing: z.string(),
  }),
);

export const ImportServerItemSchema = lazySchema(() =>
  z.object({
    /** The server as it would be added; secret values are masked. */
    server: ServerSettingsSchema,
    conflict: ImportConflictSchema.optional(),
    /** What happens unless the user chooses otherwise. */
    action: ConflictActionSchema,
    /** Used by `rename`. */
    suggestedName: z.string(),
    /** Ids of inputs this server needs a value for. */
    needs: z.array(z.string()),
    /** Environment variables it sets that can run other code before the server does (NODE_OPTIONS, LD_PRELOAD…). */
    codeEnv: z.array(z.string()).default([]),
  }),
);

export const ImportEndpointItemSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    /** Redacted. */
    url: z.string(),
    conflict: ImportConflictSchema.optional(),
    action: ConflictActionSchema,
    suggestedName: z.string(),
  }),
);

export const ImportInputSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    description: z.string(),
    /** Secret inputs are stored as secrets and never shown again. */
    password: z.boolean(),
    /** Where the value goes, e.g. "${input:api-key}" or "${workspaceFolder}". */
    placeholder: z.string(),
    defaultValue: z.string().optional(),
    /** Where the value goes, per server: "fetch: headers.Authorization". */
    where: z.array(z.string()).default([]),
    /** `${env:NAME}`: this computer's environment has a value (shown masked); it is used only if the user confirms it. */
    fromEnvironment: z.string().optional(),
    /** `${env:NAME}` names one of Xiaozhi Tray's own secrets (its endpoint, tokens, keys): never taken from the environment. */
    ownSecret: z.boolean().optional(),
  }),
);

export const ImportPreviewSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    source: z.string(),
    format: ImportFormatSchema,
    servers: z.array(ImportServerItemSchema),
    endpoints: z.array(ImportEndpointItemSchema),
    /** Tool switches and descriptions that come with the servers (xiaozhi-client). */
    tools: z.record(z.string(), z.record(z.string(), ToolSettingsSchema)),
    inputs: z.array(ImportInputSchema),
    warnings: z.array(ImportIssueSchema),
  }),
);

export const ImportChoicesSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    /** Per server (by its name in the preview): what to do, and the new name for `rename`. */
    servers: z.record(z.string(), z.object({ action: ConflictActionSchema, name: z.string().optional() })).default({}),
    endpoints: z.record(z.string(), z.object({ action: ConflictActionSchema, name: z.string().optional() })).default({}),
    /** Values for the inputs, by id. */
    inputs: z.record(z.string(), z.string()).default({}),
    /** Ids of `${env:…}` inputs the user confirmed to take from the environment (a value given in `inputs` wins). */
    fromEnvironment: z.array(z.string()).default([]),
  }),
);

export const ImportResultSchema = lazySchema(() =>
  z.object({
    addedServers: z.array(z.string()),
    replacedServers: z.array(z.string()),
    addedEndpoints: z.array(z.string()),
    skipped: z.number().int(),
    /** The servers and endpoints skipped, by the names the file gives them (the summary names them). */
    skippedNames: z.array(z.string()),
  }),
);

export const KnownClientSchema = lazySchema(() =>
  z.object({
    client: z.enum(['claude-desktop', 'cursor', 'vscode', 'windsurf', 'cline', 'codex', 'xiaozhi-client']),
    path: z.string(),
    exists: z.boolean(),
  }),
);

/**
 * `mcp-servers` and `xiaozhi-client` carry our servers; the client formats carry one entry, for
 * this app's local MCP server, as that client writes it.
 */
export const ExportFormatSchema = lazySchema(() =>
  z.enum(['mcp-servers', 'xiaozhi-client', 'cursor', 'claude-desktop', 'vscode', 'cherry-studio']),
);

export type ImportFormat = z.infer<typeof ImportFormatSchema>;
export type ConflictAction = z.infer<typeof ConflictActionSchema>;
export type ImportIssue = z.infer<typeof ImportIssueSchema>;
export type ImportConflict = z.infer<typeof ImportConflictSchema>;
export type ImportServerItem = z.infer<typeof ImportServerItemSchema>;
export type ImportEndpointItem = z.infer<typeof ImportEndpointItemSchema>;
export type ImportInput = z.infer<typeof ImportInputSchema>;
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;
export type ImportChoices = z.input<typeof ImportChoicesSchema>;
export type ImportResult = z.infer<typeof ImportResultSchema>;
export type KnownClient = z.infer<typeof KnownClientSchema>;
export type ExportFormat = z.infer<typeof ExportFormatSchema>;
