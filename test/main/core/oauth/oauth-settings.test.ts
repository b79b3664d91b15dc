import { describe, expect, it } from 'vitest';

import { ConfigError } from '../../../../src/main/core/config/json-text';
import { parseConfigText } from '../../../../src/main/core/config/load-config';
import { maskServer, restoreMaskedServer, secretValues } from '../../../../src/main/core/secrets/bridge-secrets';
import { type RemoteServerSettings, SettingsSchema } from '../../../../src/shared/settings';

const problemsOf = (text: string) => {
  try {
    parseConfigText('/tmp/x.json', text, {});
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
};

describe("a remote server's oauth settings", () => {
  it('are read from mcpServers entries and our own config, with what is wrong and where', () => {
    const loaded = parseConfigText(
      '/tmp/x.json',
      JSON.stringify({
        mcpServers: { cloud: { type: 'http', url: 'https://mcp.example/mcp', oauth: { clientId: 'app-1', scope: 'read' } } },
      }),
      {},
    );
    expect((loaded.settings.servers[0] as RemoteServerSettings).oauth).toEqual({ clientId: 'app-1', scope: 'read' });
    expect(
      problemsOf(JSON.stringify({ mcpServers: { cloud: { type: 'http', url: 'https://mcp.example/mcp', oauth: { clientId: '' } } } })).join(
        '\n',
      ),
    ).toMatch(/mcpServers.*cloud.*oauth.*clientId.*must not be empty/);
    const own = SettingsSchema.safeParse({
      servers: [{ name: 'c', transport: 'sse', url: 'https://x.example/sse', oauth: { clientId: 'a', secret: 'x' } }],
    });
    expect(own.success).toBe(false);
    expect(own.error?.issues[0]?.path).toEqual(['servers', 0, 'oauth']);
  });

  it('keep the client secret a secret: masked for the window, restored when it comes back masked, redacted from logs', () => {
    const server = {
      name: 'c',
      transport: 'streamable-http',
      url: 'https://x.example/mcp',
      headers: {},
      enabled: true,
      oauth: { clientId: 'a', clientSecret: 'client-secret-value-9' },
    } as RemoteServerSettings;
    const shown = maskServer(server);
    expect(JSON.stringify(shown)).not.toContain('client-secret-value-9');
    expect(restoreMaskedServer(shown, server)).toEqual(server);
    expect(secretValues(SettingsSchema.parse({ servers: [server] }))).toContain('client-secret-value-9');
  });
});
