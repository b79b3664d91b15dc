import { afterEach, describe, expect, it } from 'vitest';

import { parseConfigText } from '../../../../src/main/core/config/load-config';
import { type Harness, makeBridge } from '../../../helpers/bridge-harness';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

/** What "Add to Cursor" and "Add to Claude Desktop" write: this app's own entries. */
const cursorFile = JSON.stringify({
  mcpServers: {
    'xiaozhi-tray': { url: 'http://127.0.0.1:18790/mcp/cursor', headers: { Authorization: 'Bearer local-token-1234567890' } },
    memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
  },
});
const claudeFile = JSON.stringify({
  mcpServers: {
    'xiaozhi-tray': {
      command: '/Applications/Xiaozhi Tray.app/Contents/MacOS/Xiaozhi Tray',
      args: ['/Applications/Xiaozhi Tray.app/Contents/Resources/app.asar/out/cli/index.js', 'connect', '--client', 'claude-desktop'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    },
    npxConnect: { command: 'npx', args: ['xiaozhi-tray', 'connect'] },
  },
});

describe("this app's own entries in other apps' configs", () => {
  it('are left out of an import, with a warning, so the app never serves its tools back to itself', async () => {
    harness = makeBridge({});
    const preview = await harness.bridge.api.previewImport({ source: 'mcp.json', text: cursorFile });
    expect(preview.servers.map((s) => s.server.name)).toEqual(['memory']);
    expect(preview.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('skipped "xiaozhi-tray": it is Xiaozhi Tray\'s own local MCP server'),
    ]);
    const claude = await harness.bridge.api.previewImport({ source: 'claude_desktop_config.json', text: claudeFile });
    expect(claude.servers).toEqual([]);
    expect(claude.warnings).toHaveLength(2);
  });

  it('are left out of a config file run as it is, and refused when added by hand', async () => {
    const loaded = parseConfigText('mcp.json', cursorFile, {});
    expect(loaded.settings.servers.map((s) => s.name)).toEqual(['memory']);
    expect(loaded.warnings[0]?.message).toContain('own local MCP server');
    harness = makeBridge({});
    await expect(
      harness.bridge.api.addServer({
        name: 'loop',
        transport: 'streamable-http',
        url: 'http://localhost:18790/mcp',
        headers: {},
        enabled: true,
      }),
    ).rejects.toThrow(/own local MCP server/);
    await harness.bridge.api.addServer({
      name: 'other',
      transport: 'streamable-http',
      url: 'http://localhost:18791/mcp',
      headers: {},
      enabled: false,
    });
  });
});
