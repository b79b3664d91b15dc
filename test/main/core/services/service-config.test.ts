import { describe, expect, it } from 'vitest';

import { parseConfigText } from '../../../../src/main/core/config/load-config';
import { exportConfig } from '../../../../src/main/core/import/export-config';
import { SettingsSchema } from '../../../../src/shared/settings';
import { problems } from '../../../helpers/config-problems';
import { serviceEntries } from './service-settings';

const BASE = 'http://127.0.0.1:9';

describe('web services in the config file', () => {
  it('are checked with the line and JSON path of each wrong value', () => {
    const text = JSON.stringify(
      {
        servers: [
          { name: 'coze', transport: 'coze', token: '', workflows: [{ id: 'not a number!', tool: 'weather' }] },
          { name: 'ha', transport: 'home-assistant', baseUrl: 'homeassistant.local', token: 't', services: ['turn on the light'] },
          { name: 'web', transport: 'http-api', tools: [{ name: 'has space', url: '/x', result: { pick: 'data.temp' } }] },
        ],
      },
      null,
      2,
    );
    const found = problems(() => parseConfigText('mine.json', text, {}));
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^line 6, column \d+, at servers\[0\]\.token: must be a personal access token$/),
        expect.stringMatching(/^line 9, column \d+, at servers\[0\]\.workflows\[0\]\.id: must be the workflow id/),
        expect.stringMatching(/^line 17, column \d+, at servers\[1\]\.baseUrl: must be an http:\/\/ or https:\/\/ URL$/),
        expect.stringMatching(/^line 20, column \d+, at servers\[1\]\.services\[0\]: must be domain\.service/),
        expect.stringMatching(/at servers\[2\]\.tools\[0\]\.name: must be 1 to 64 letters, digits, _ or -/),
        expect.stringMatching(/at servers\[2\]\.tools\[0\]\.result\.pick: must be a JSON Pointer/),
      ]),
    );
  });

  it('are carried by export and read back by import, every kind with its settings', () => {
    const settings = SettingsSchema.parse({ servers: serviceEntries(BASE) });
    const file = exportConfig(settings, 'mcp-servers');
    const exported = JSON.parse(file.text) as { mcpServers: Record<string, { type: string }> };
    expect(Object.values(exported.mcpServers).map((entry) => entry.type)).toEqual([
      'coze',
      'dify',
      'n8n',
      'home-assistant',
      'openapi',
      'http-api',
    ]);
    const back = parseConfigText('mcp.json', file.text, {}).settings;
    expect(back.servers).toEqual(settings.servers);
  });

  it('read from an mcpServers file say where a wrong value is', () => {
    const text = '{\n  "mcpServers": {\n    "flow": { "type": "dify", "apiKey": "k", "tool": "run", "app": "agent" }\n  }\n}';
    expect(problems(() => parseConfigText('mcp.json', text, {}))).toContainEqual(
      expect.stringMatching(/^line 3, column \d+, at mcpServers\.flow\.app: must be one of workflow, chat$/),
    );
  });
});
