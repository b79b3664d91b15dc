import fs from 'node:fs';

import type { AddToClient } from '../../../shared/tool-set-api';
import { clientToken } from './client-tokens';

/** How a stdio-only client starts `xiaozhi-tray connect` with this install. */
export interface ConnectCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Headless, `connect` is started the way this very process was: node and the CLI script. */
export function defaultConnectCommand(): ConnectCommand {
  const script = process.argv[1] ? fs.realpathSync(process.argv[1]) : 'xiaozhi-tray';
  return { command: process.execPath, args: [script] };
}

/** The key our entry has in every client's list of servers. */
export const ENTRY_NAME = 'xiaozhi-tray';

export interface EntryContext {
  /** The local server's base URL, e.g. http://127.0.0.1:18790/mcp */
  url: string;
  /** The app's token: each client's entry carries its own, derived from it. */
  appToken: string;
  connect: ConnectCommand;
}

/** Each client's own path, so each can have its own tool set and its calls carry its name. */
export const clientUrl = (base: string, client: string): string => `${base}/${client}`;

/** Where a client's file keeps its servers: VS Code says `servers`, the others `mcpServers`. */
export const serversKey = (client: AddToClient): 'servers' | 'mcpServers' => (client === 'vscode' ? 'servers' : 'mcpServers');

/**
 * This app's local server as an entry of the client's config: Cursor, VS Code and Cherry Studio
 * speak streamable HTTP with a bearer header; Claude Desktop runs stdio servers only, so it starts
 * `xiaozhi-tray connect`, which finds the running app by itself (no token in Claude's file). Each
 * entry carries its own client's token, which opens that client's path only.
 */
export function clientEntry(client: AddToClient, context: EntryContext): Record<string, unknown> {
  const url = clientUrl(context.url, client);
  const headers = { Authorization: `Bearer ${clientToken(context.appToken, client)}` };
  switch (client) {
    case 'cursor':
      return { url, headers };
    case 'vscode':
      return { type: 'http', url, headers };
    case 'cherry-studio':
      return { name: 'Xiaozhi Tray', type: 'streamableHttp', baseUrl: url, headers };
    case 'claude-desktop':
      return {
        command: context.connect.command,
        args: [...context.connect.args, 'connect', '--client', client],
        ...(context.connect.env && Object.keys(context.connect.env).length > 0 ? { env: context.connect.env } : {}),
      };
  }
}

/** A whole config file holding only our entry, as `export --format <client>` prints it. */
export function exportClientConfig(client: AddToClient, context: EntryContext): { fileName: string; text: string } {
  const fileName = {
    cursor: 'mcp.json',
    vscode: 'mcp.json',
    'claude-desktop': 'claude_desktop_config.json',
    'cherry-studio': 'cherry-studio-mcp.json',
  }[client];
  const config = { [serversKey(client)]: { [ENTRY_NAME]: clientEntry(client, context) } };
  return { fileName, text: `${JSON.stringify(config, null, 2)}\n` };
}

/** Cherry Studio keeps its servers in its own database: it takes them through this link instead of a file. */
export function cherryStudioLink(entry: Record<string, unknown>): string {
  const json = JSON.stringify({ mcpServers: { [ENTRY_NAME]: entry } });
  return `cherrystudio://mcp/install?servers=${encodeURIComponent(Buffer.from(json, 'utf8').toString('base64'))}`;
}
