import { describe, expect, it } from 'vitest';

import { JSON_ADAPTERS, type JsonFormat, jsonFormat } from '../../../../src/main/core/config/json-formats';
import { type ConfigProblem, JsonDocument } from '../../../../src/main/core/config/json-text';
import { ImportFormatSchema } from '../../../../src/shared/import';

/** One smallest file of each JSON format, and the names of the servers its adapter finds. */
const SAMPLES: Record<JsonFormat, { file: string; root: object; names: string[] }> = {
  'claude-desktop': { file: 'claude_desktop_config.json', root: { mcpServers: { a: { command: 'x' } } }, names: ['a'] },
  cursor: { file: 'mcp.json', root: { mcpServers: { a: { url: 'https://h/mcp' } } }, names: ['a'] },
  windsurf: { file: 'mcp.json', root: { mcpServers: { a: { serverUrl: 'https://h/mcp' } } }, names: ['a'] },
  'xiaozhi-example': { file: 'mcp.json', root: { mcpServers: { a: { type: 'stdio', command: 'x' } } }, names: ['a'] },
  cline: { file: 'mcp.json', root: { mcpServers: { a: { command: 'x', autoApprove: [] } } }, names: ['a'] },
  vscode: { file: 'mcp.json', root: { servers: { a: { command: 'x' } }, inputs: [{ id: 'k', password: true }] }, names: ['a'] },
  'server-snippet': { file: 's.json', root: { command: 'npx', args: ['-y', '@scope/mcp-server-time'] }, names: ['time'] },
  'xiaozhi-tray': {
    file: 'settings.json',
    root: { servers: [{ name: 'a', transport: 'stdio', command: 'x' }], endpoints: [] },
    names: ['a'],
  },
  'xiaozhi-client': {
    file: 'xiaozhi.config.json',
    root: { mcpEndpoint: 'wss://h/mcp/?token=t', mcpServers: { a: { command: 'x' } } },
    names: ['a'],
  },
};

describe('the JSON formats, one adapter each', () => {
  it('has an adapter for every format that is not TOML or a bare URL', () => {
    const json = ImportFormatSchema.options.filter((f) => f !== 'codex' && f !== 'endpoint-url');
    expect(Object.keys(JSON_ADAPTERS).sort()).toEqual([...json].sort());
  });

  for (const [format, sample] of Object.entries(SAMPLES)) {
    it(`knows ${format} by its keys, and its adapter finds its servers`, () => {
      const doc = JsonDocument.parse(sample.file, JSON.stringify(sample.root));
      const root = doc.value as Record<string, unknown>;
      expect(jsonFormat(sample.file, root)).toBe(format);
      const problems: ConfigProblem[] = [];
      const reading = JSON_ADAPTERS[format as JsonFormat](root, doc, problems);
      expect(problems).toEqual([]);
      expect(reading.entries.map(([name]) => name)).toEqual(sample.names);
    });
  }

  it('reads what only xiaozhi-client carries: endpoints (not its placeholder), tool switches', () => {
    const root = {
      mcpEndpoint: ['wss://h/mcp/?token=t', '<请填写你的接入点>'],
      mcpServers: {},
      mcpServerConfig: { a: { tools: { t: { enable: false } } } },
    };
    const doc = JsonDocument.parse('xiaozhi.config.json', JSON.stringify(root));
    const reading = JSON_ADAPTERS['xiaozhi-client'](doc.value as Record<string, unknown>, doc, []);
    expect(reading.endpoints).toEqual([{ name: 'xiaozhi', url: 'wss://h/mcp/?token=t' }]);
    expect(reading.tools?.a?.t).toEqual({ enabled: false });
  });

  it('says nothing of a root that is no MCP config', () => {
    expect(jsonFormat('x.json', { theme: 'dark' })).toBeUndefined();
    expect(jsonFormat('x.json', {})).toBeUndefined();
  });
});
