import { describe, expect, it } from 'vitest';

import { parseConfigText } from '../../../../src/main/core/config/load-config';
import { CURRENT_SETTINGS_VERSION, migrateSettings } from '../../../../src/main/core/config/migrations';
import {
  addToolSet,
  forgetServerInSets,
  removeToolSet,
  renameServerInSets,
  updateToolSet,
  withServerTools,
  withToolSetting,
} from '../../../../src/main/core/hub/tool-set-edits';
import { defaultSettings, defaultToolSwitches, findToolSet, SettingsSchema } from '../../../../src/shared/settings';
import { firstIssue } from '../../../../src/shared/zod-issue';
import { problems } from '../../../helpers/config-problems';

const URL = 'wss://api.xiaozhi.me/mcp/?token=abc';

describe('settings version 2: tool sets', () => {
  it("migrates version 1: today's per-tool switches become the default set, which every endpoint serves", () => {
    const v1 = {
      version: 1,
      endpoints: [{ id: 'e1', name: 'kitchen', url: URL, enabled: true }],
      servers: [{ name: 'weather', transport: 'stdio', command: 'node' }],
      tools: { weather: { forecast: { enabled: false, description: '天气预报' } } },
      naming: 'always-prefix',
    };
    const migrated = migrateSettings(v1);
    expect(migrated.version).toBe(CURRENT_SETTINGS_VERSION);
    expect(migrated.toolSets).toEqual([{ id: 'all', name: 'all', servers: 'all', tools: v1.tools }]);
    expect(findToolSet(migrated, migrated.endpoints[0]?.toolSet).id).toBe('all');
    expect(migrated.naming).toBe('always-prefix');
    expect(migrated.localServer).toMatchObject({ enabled: false, host: '127.0.0.1', toolSet: 'all', clients: {} });
    expect('tools' in migrated).toBe(false);
  });

  it('migrates the earliest shape (xiaozhi-client fields) all the way', () => {
    const migrated = migrateSettings({ mcpEndpoint: URL, mcpServers: { m: { command: 'npx' } } });
    expect(migrated).toMatchObject({
      version: CURRENT_SETTINGS_VERSION,
      endpoints: [{ url: URL }],
      servers: [{ name: 'm' }],
      toolSets: [{ id: 'all', servers: 'all', tools: {} }],
    });
  });

  it('refuses settings newer than this app', () => {
    expect(() => migrateSettings({ version: 4 })).toThrow(/version 4, newer than this app understands \(3\)/);
  });

  it('always has the default set, first; a set without an id takes its name', () => {
    const settings = SettingsSchema.parse({ toolSets: [{ name: 'kitchen', servers: ['weather'] }] });
    expect(settings.toolSets.map((s) => [s.id, s.name])).toEqual([
      ['all', 'all'],
      ['kitchen', 'kitchen'],
    ]);
    expect(defaultSettings().toolSets).toEqual([{ id: 'all', name: 'all', servers: 'all', tools: {} }]);
  });

  it('says where a reference or a set is wrong', () => {
    const issue = (input: unknown) => {
      const parsed = SettingsSchema.safeParse(input);
      return parsed.success ? undefined : firstIssue(parsed.error);
    };
    expect(issue({ endpoints: [{ id: 'e', name: 'e', url: URL, toolSet: 'nope' }] })).toEqual({
      path: 'endpoints.0.toolSet',
      message: 'no tool set has the id "nope"',
    });
    expect(issue({ localServer: { clients: { cursor: { toolSet: 'nope' } } } })).toEqual({
      path: 'localServer.clients.cursor.toolSet',
      message: 'no tool set has the id "nope"',
    });
    expect(issue({ toolSets: [{ name: 'a' }, { id: 'b', name: 'a' }] })?.message).toBe('duplicates the name of toolSets[1]');
    expect(issue({ toolSets: [{ id: 'all', name: 'all', servers: ['x'] }] })).toEqual({
      path: 'toolSets.0.servers',
      message: 'the default set "all" serves every server',
    });
    expect(issue({ localServer: { clients: { 'Not Ok': { toolSet: 'all' } } } })?.path).toBe('localServer.clients.Not Ok');
  });

  it("reads a version 1 config file: its switches stay the default set's, and problems point into `tools`", () => {
    const good = JSON.stringify({ endpoints: [], servers: [], tools: { s: { t: { enabled: false } } } });
    expect(defaultToolSwitches(parseConfigText('mine.json', good, {}).settings)).toEqual({ s: { t: { enabled: false } } });
    // They are read: no warning calls them ignored (a version 2 file's `tools` is, and says so).
    expect(parseConfigText('mine.json', good, {}).warnings).toEqual([]);
    expect(parseConfigText('mine.json', JSON.stringify({ version: 2, tools: {} }), {}).warnings.map((w) => w.message)).toEqual([
      '"tools" is not a setting and is ignored',
    ]);
    const bad = JSON.stringify({ servers: [], tools: { s: { t: { enabled: 'no' } } } }, null, 2);
    expect(problems(() => parseConfigText('mine.json', bad, {}))).toContainEqual(
      expect.stringMatching(/^line 6, column \d+, at tools\.s\.t\.enabled: /),
    );
  });

  it('reads toolSets and an endpoint toolSet from a config file, naming sets by name', () => {
    const text = JSON.stringify({
      endpoints: [{ id: 'k', name: 'kitchen', url: URL, toolSet: 'kitchen' }],
      servers: [],
      toolSets: [{ name: 'kitchen', servers: ['weather'], tools: { weather: { alerts: { enabled: false } } } }],
    });
    const { settings } = parseConfigText('mine.json', text, {});
    expect(findToolSet(settings, settings.endpoints[0]?.toolSet)).toEqual({
      id: 'kitchen',
      name: 'kitchen',
      servers: ['weather'],
      tools: { weather: { alerts: { enabled: false } } },
    });
    const wrong = JSON.stringify({ endpoints: [{ id: 'k', name: 'kitchen', url: URL, toolSet: 'study' }], servers: [] }, null, 2);
    expect(problems(() => parseConfigText('mine.json', wrong, {}))).toContainEqual(
      expect.stringMatching(/at endpoints\[0\]\.toolSet: no tool set has the id "study"/),
    );
  });

  it("keeps xiaozhi-client's mcpServerConfig switches meaning the default set", () => {
    const text = JSON.stringify({
      mcpEndpoint: URL,
      mcpServers: { calc: { command: 'node' } },
      mcpServerConfig: { calc: { tools: { sqrt: { enable: false } } } },
    });
    const { settings } = parseConfigText('xiaozhi.config.json', text, {});
    expect(settings.toolSets).toEqual([{ id: 'all', name: 'all', servers: 'all', tools: { calc: { sqrt: { enabled: false } } } }]);
  });
});

describe('editing tool sets', () => {
  const base = () =>
    SettingsSchema.parse({
      servers: [
        { name: 'weather', transport: 'stdio', command: 'node' },
        { name: 'notes', transport: 'stdio', command: 'node' },
      ],
    });

  it('adds a set (empty, or a copy), renames it, chooses its servers, and refuses clashing names', () => {
    const empty = addToolSet(base(), { name: 'Kitchen speaker' });
    expect(empty.set).toEqual({ id: 'kitchen-speaker', name: 'Kitchen speaker', servers: [], tools: {} });
    const chinese = addToolSet(empty.settings, { name: '书房', copyFrom: 'all' });
    expect(chinese.set.id).toMatch(/^set-[0-9a-f]{8}$/);
    expect(chinese.set.servers).toBe('all');
    expect(() => addToolSet(chinese.settings, { name: ' 书房 ' })).toThrow(/already exists/);
    const renamed = updateToolSet(chinese.settings, { id: 'kitchen-speaker', name: 'Kitchen', servers: ['weather'] });
    expect(findToolSet(renamed, 'kitchen-speaker')).toMatchObject({ name: 'Kitchen', servers: ['weather'] });
    expect(() => updateToolSet(renamed, { id: 'all', servers: ['weather'] })).toThrow(/serves every server/);
    expect(SettingsSchema.safeParse(renamed).success).toBe(true);
  });

  it('switches a tool in one set only', () => {
    const { settings } = addToolSet(base(), { name: 'kitchen', servers: ['weather'] });
    const off = withToolSetting(settings, 'kitchen', 'weather', 'alerts', { enabled: false, description: '警报' });
    expect(findToolSet(off, 'kitchen').tools).toEqual({ weather: { alerts: { enabled: false, description: '警报' } } });
    expect(defaultToolSwitches(off)).toEqual({});
    const cleared = withToolSetting(off, 'kitchen', 'weather', 'alerts', { description: null });
    expect(findToolSet(cleared, 'kitchen').tools.weather?.alerts).toEqual({ enabled: false });
    const allOn = withServerTools(cleared, 'kitchen', 'weather', ['alerts', 'forecast'], true);
    expect(findToolSet(allOn, 'kitchen').tools.weather).toEqual({ alerts: { enabled: true }, forecast: { enabled: true } });
    expect(() => withToolSetting(settings, 'nope', 'weather', 'alerts', { enabled: false })).toThrow(/No tool set has the id "nope"/);
  });

  it('follows a renamed server in every set, and forgets a removed one everywhere', () => {
    let { settings } = addToolSet(base(), { name: 'kitchen', servers: ['weather', 'notes'] });
    settings = withToolSetting(settings, 'kitchen', 'weather', 'alerts', { enabled: false });
    settings = withToolSetting(settings, 'all', 'weather', 'alerts', { enabled: false });
    const renamed = renameServerInSets(settings, 'weather', 'sky');
    expect(findToolSet(renamed, 'kitchen')).toMatchObject({ servers: ['sky', 'notes'], tools: { sky: { alerts: { enabled: false } } } });
    expect(defaultToolSwitches(renamed)).toEqual({ sky: { alerts: { enabled: false } } });
    const forgotten = forgetServerInSets(renamed, 'sky');
    expect(findToolSet(forgotten, 'kitchen')).toMatchObject({ servers: ['notes'], tools: {} });
  });

  it('removes a set: whatever served it serves the default set again; the default set stays', () => {
    const { settings } = addToolSet(base(), { name: 'kitchen' });
    const using = SettingsSchema.parse({
      ...settings,
      endpoints: [
        { id: 'e1', name: 'speaker', url: URL, toolSet: 'kitchen' },
        { id: 'e2', name: 'desk', url: URL },
      ],
      localServer: { toolSet: 'kitchen', clients: { cursor: { toolSet: 'kitchen' }, vscode: { toolSet: 'all' } } },
    });
    const removed = removeToolSet(using, 'kitchen');
    expect(removed.movedEndpoints).toEqual(['e1']);
    expect(removed.settings.endpoints[0]?.toolSet).toBeUndefined();
    expect(removed.settings.localServer).toMatchObject({ toolSet: 'all', clients: { vscode: { toolSet: 'all' } } });
    expect(SettingsSchema.safeParse(removed.settings).success).toBe(true);
    expect(() => removeToolSet(using, 'all')).toThrow(/cannot be removed/);
  });
});
