import type { ExportFormat } from '../../../shared/import';
import { defaultToolSwitches, isMcpServer, type ServerSettings, type Settings } from '../../../shared/settings';
import { ENV_ENDPOINT_ID } from '../config/settings-store';
import { type EntryContext, exportClientConfig } from '../local-server/client-entries';

function entry(server: ServerSettings): Record<string, unknown> {
  // `timeout` in seconds is what Cline and others read.
  const common = {
    ...(server.enabled ? {} : { disabled: true }),
    // Read back by our own import: editing it shows its catalogue entry's values again.
    ...('catalogue' in server && server.catalogue ? { catalogue: server.catalogue } : {}),
    ...(server.callTimeoutMs ? { timeout: server.callTimeoutMs / 1000 } : {}),
  };
  if (!isMcpServer(server)) {
    // Read back by our own import (`"type": "coze"`…); other programs have no use for these entries.
    const { name: _name, transport, enabled: _enabled, callTimeoutMs: _timeout, ...fields } = server;
    return { type: transport, ...fields, ...common };
  }
  if (server.transport === 'stdio') {
    return {
      command: server.command,
      ...(server.args.length > 0 ? { args: server.args } : {}),
      ...(Object.keys(server.env).length > 0 ? { env: server.env } : {}),
      ...(server.cwd ? { cwd: server.cwd } : {}),
      ...common,
    };
  }
  return {
    type: server.transport === 'sse' ? 'sse' : 'http',
    url: server.url,
    ...(Object.keys(server.headers).length > 0 ? { headers: server.headers } : {}),
    // Read back by our own import (other tools ignore it); sign-ins themselves stay in the app.
    ...(server.oauth ? { oauth: server.oauth } : {}),
    ...common,
  };
}

/**
 * Our servers as a file other tools read: an `mcpServers` file (Claude Desktop, Cursor) or
 * xiaozhi-client's `xiaozhi.config.json`; or, in a client's format (cursor, claude-desktop, vscode,
 * cherry-studio), one entry for this app's local MCP server. It holds the real values: it is the
 * user's own file.
 */
export function exportConfig(
  settings: Settings,
  format: ExportFormat,
  localServer?: () => EntryContext,
): { fileName: string; text: string } {
  if (format !== 'mcp-servers' && format !== 'xiaozhi-client') {
    if (!localServer) throw new Error(`The ${format} format needs the local MCP server's address and token.`);
    return exportClientConfig(format, localServer());
  }
  const mcpServers = Object.fromEntries(settings.servers.map((s) => [s.name, entry(s)]));
  if (format === 'mcp-servers') return { fileName: 'mcp.json', text: `${JSON.stringify({ mcpServers }, null, 2)}\n` };
  // The endpoint MCP_ENDPOINT added for this run is the environment's, not the user's to export.
  const endpoints = settings.endpoints.filter((e) => e.enabled && e.id !== ENV_ENDPOINT_ID).map((e) => e.url);
  const mcpServerConfig = Object.fromEntries(
    Object.entries(defaultToolSwitches(settings))
      .filter(([, tools]) => Object.keys(tools).length > 0)
      .map(([server, tools]) => [
        server,
        {
          tools: Object.fromEntries(
            Object.entries(tools).map(([name, t]) => [
              name,
              { enable: t.enabled, ...(t.description ? { description: t.description } : {}) },
            ]),
          ),
        },
      ]),
  );
  const config = {
    mcpEndpoint: endpoints.length === 1 ? endpoints[0] : endpoints,
    mcpServers,
    ...(Object.keys(mcpServerConfig).length > 0 ? { mcpServerConfig } : {}),
    ...(settings.modelscope.apiKey ? { modelscope: { apiKey: settings.modelscope.apiKey } } : {}),
    connection: {
      heartbeatInterval: settings.connection.heartbeatIntervalMs,
      heartbeatTimeout: settings.connection.heartbeatTimeoutMs,
      reconnectInterval: settings.connection.reconnectBaseMs,
    },
  };
  return { fileName: 'xiaozhi.config.json', text: `${JSON.stringify(config, null, 2)}\n` };
}
