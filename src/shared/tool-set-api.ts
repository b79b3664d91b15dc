import { z } from 'zod';

import { APP_NAMES } from './i18n/app-names';
import { lazySchema } from './lazy-schema';
import { own } from './own';
import { LOCAL_CLIENT_ID, ToolSetSchema } from './settings';
import { CallCountSchema, CatalogToolSchema } from './status';

/**
 * The BridgeApi commands for tool sets, the local MCP server and "Add to …" (merged into
 * `bridgeCommands`). Inputs are validated by the bridge, whichever carrier brought them.
 */
const command = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });

const SetId = lazySchema(() => z.string().trim().min(1).max(64));
const ServerChoice = lazySchema(() => z.union([z.literal('all'), z.array(z.string().min(1))]));

/** The clients "Add to …" can write an entry into. */
export const AddToClientSchema = lazySchema(() => z.enum(['cursor', 'claude-desktop', 'vscode', 'cherry-studio']));

export const AddToClientPreviewSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    client: AddToClientSchema,
    /** The file that changes; absent for Cherry Studio, which keeps no config file (a link and JSON instead). */
    path: z.string().optional(),
    exists: z.boolean(),
    action: z.enum(['add', 'replace', 'unchanged']),
    /** The key our entry has in the client's server list. */
    entryName: z.string(),
    /** The entry as it will be written, with the token masked. */
    entry: z.string(),
    /** The other servers in the file, kept as they are. */
    otherServers: z.array(z.string()),
    toolSet: z.string(),
    /** The local server is off: adding turns it on. */
    turnsServerOn: z.boolean(),
    /**
     * The file is there and other users of this computer can read (or change) it, while the entry
     * holds a token: its mode (e.g. "644"); the window offers to make it the user's alone (600).
     */
    openToOthers: z.string().optional(),
    /** Cherry Studio: its install link, and the JSON its "import from JSON" takes (both hold the token). */
    link: z.string().optional(),
    copyText: z.string().optional(),
  }),
);

export const toolSetCommands = {
  /** One set's catalog: the tools of its servers, with that set's switches, names and sizes. */
  getToolSetCatalog: command(
    lazySchema(() => z.object({ id: SetId })),
    lazySchema(() => z.array(CatalogToolSchema)),
  ),
  /** A new set: empty unless `servers` or `copyFrom` (another set's id) says otherwise. */
  addToolSet: command(
    lazySchema(() => z.object({ name: z.string().min(1).max(64), servers: ServerChoice.optional(), copyFrom: SetId.optional() })),
    ToolSetSchema.required({ id: true }),
  ),
  updateToolSet: command(
    lazySchema(() => z.object({ id: SetId, name: z.string().min(1).max(64).optional(), servers: ServerChoice.optional() })),
    lazySchema(() => z.void()),
  ),
  /** Endpoints and local clients that served it serve the default set again. */
  removeToolSet: command(
    lazySchema(() => z.object({ id: SetId })),
    lazySchema(() => z.void()),
  ),

  /** Turn the local MCP server on or off, move it, or choose sets (per client: a set id, or null for the shared choice). */
  updateLocalServer: command(
    lazySchema(() =>
      z.object({
        enabled: z.boolean().optional(),
        port: z.number().int().min(0).max(65535).optional(),
        host: z.string().trim().min(1).optional(),
        toolSet: SetId.optional(),
        clients: z.record(z.string().regex(LOCAL_CLIENT_ID), SetId.nullable()).optional(),
      }),
    ),
    lazySchema(() => z.void()),
  ),
  /** The bearer token, only when the user asks to see or copy it: a client's own (for /mcp/<client>), or the app's (for /mcp). */
  revealLocalServerToken: command(
    lazySchema(() => z.union([z.void(), z.object({ client: z.string().regex(LOCAL_CLIENT_ID).optional() })])),
    lazySchema(() => z.string()),
  ),
  /** A new token: every client entry written before stops working. */
  regenerateLocalServerToken: command(
    lazySchema(() => z.void()),
    lazySchema(() => z.void()),
  ),

  /** What "Add to …" would write, where; changes nothing. */
  previewAddToClient: command(
    lazySchema(() => z.object({ client: AddToClientSchema, toolSet: SetId.optional() })),
    AddToClientPreviewSchema,
  ),
  /** Writes the previewed entry (atomically, keeping the rest of the file; `makePrivate`: mode 600), or opens Cherry Studio's link. */
  applyAddToClient: command(
    lazySchema(() => z.object({ id: z.string().min(1), makePrivate: z.boolean().optional() })),
    lazySchema(() => z.object({ path: z.string().optional(), opened: z.boolean() })),
  ),

  /** Calls per caller (endpoint, local client, or `ui`) since the bridge started. */
  getCallerCounts: command(
    lazySchema(() => z.void()),
    lazySchema(() => z.record(z.string(), CallCountSchema)),
  ),
} as const;

export type AddToClient = z.infer<typeof AddToClientSchema>;
export type AddToClientPreview = z.infer<typeof AddToClientPreviewSchema>;

/** The names of the clients "Add to …" knows; other client ids are shown as they are. */
export const LOCAL_CLIENT_NAMES = Object.fromEntries(AddToClientSchema.options.map((client) => [client, APP_NAMES[client]])) as Record<
  AddToClient,
  string
>;

/** The name a local client goes by (in history, in the window); undefined for `/mcp`, which names none. */
export function localClientName(client: string): string | undefined {
  if (client === '') return undefined;
  return own(LOCAL_CLIENT_NAMES as Record<string, string>, client) ?? client;
}
