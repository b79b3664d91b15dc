import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Bridge } from '../../../../src/main/core/bridge/bridge';
import { ConfigError, formatProblem } from '../../../../src/main/core/config/json-text';
import { loadConfigFile } from '../../../../src/main/core/config/load-config';
import { FileSettingsStore } from '../../../../src/main/core/config/settings-store';
import { withServerTools } from '../../../../src/main/core/hub/tool-set-edits';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { SettingsSchema } from '../../../../src/shared/settings';

/**
 * The window's API and `check` follow one rule for names written as keys: whatever a command
 * saves, `check` accepts. Before, `setToolDescription` for server "constructor" saved
 * `toolSets[0].tools.constructor`, which `check` then refused, and a description for "__proto__"
 * was accepted and silently lost.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-names-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const KEY_NAMES = ['__proto__', 'constructor', 'prototype'];
/** Names `check` refuses for other reasons (empty, blank, too long). */
const OTHER_BAD_NAMES = ['', '   ', 'x'.repeat(65)];

const stdio = (name: string) => ({
  name,
  transport: 'stdio' as const,
  command: process.execPath,
  args: ['-e', '0'],
  env: {},
  enabled: false,
});

type Run = (b: Bridge, name: string) => Promise<unknown>;

/** Every command that takes a server, tool or set name and writes it into the config. */
const WRITES_A_KEY: [string, Run][] = [
  ['addServer', (b, name) => b.api.addServer(stdio(name))],
  ['updateServer (rename)', (b, name) => b.api.updateServer({ name: 'existing', server: stdio(name) })],
  ['setToolEnabled (server)', (b, name) => b.api.setToolEnabled({ server: name, tool: 'read', enabled: false })],
  ['setToolEnabled (tool)', (b, name) => b.api.setToolEnabled({ server: 'existing', tool: name, enabled: false })],
  ['setToolDescription (server)', (b, name) => b.api.setToolDescription({ server: name, tool: 'read', description: 'Reads.' })],
  ['setToolDescription (tool)', (b, name) => b.api.setToolDescription({ server: 'existing', tool: name, description: 'Reads.' })],
  [
    'setToolEnabled in another set',
    (b, name) =>
      b.api.addToolSet({ name: 'mine' }).then((set) => b.api.setToolEnabled({ server: name, tool: name, enabled: true, toolSet: set.id })),
  ],
  ['setServerToolsEnabled', (b, name) => b.api.setServerToolsEnabled({ server: name, enabled: false })],
];

/**
 * Commands that take a name kept as a value, or a key the input check already refuses (env and
 * header names, local client ids): they may accept it, but what they save must pass `check`.
 */
const WRITES_A_VALUE: [string, Run][] = [
  ['addServer (env name)', (b, name) => b.api.addServer({ ...stdio('with-env'), env: { [name]: 'x' } })],
  [
    'addServer (header name)',
    (b, name) =>
      b.api.addServer({
        name: 'with-header',
        transport: 'streamable-http',
        url: 'http://127.0.0.1:9/mcp',
        headers: { [name]: 'x' },
        enabled: false,
      }),
  ],
  ['updateLocalServer (client id)', (b, name) => b.api.updateLocalServer({ clients: { [name]: 'all' } })],
  [
    'setEndpointTools (pinned)',
    (b, name) =>
      b.api
        .addEndpoint({ name: 'x', url: 'wss://127.0.0.1:9/mcp/?token=names-test-token' })
        .then((e) => b.api.setEndpointTools({ id: e.id, toolMode: 'router', pinned: [name] })),
  ],
  ['addToolSet', (b, name) => b.api.addToolSet({ name })],
  [
    'updateToolSet',
    (b, name) => b.api.addToolSet({ name: 'mine' }).then((set) => b.api.updateToolSet({ id: set.id, name, servers: [name] })),
  ],
  ['addEndpoint', (b, name) => b.api.addEndpoint({ name, url: 'wss://127.0.0.1:9/mcp/?token=names-test-token' })],
  [
    'updateEndpoint',
    (b, name) =>
      b.api
        .addEndpoint({ name: 'x', url: 'wss://127.0.0.1:9/mcp/?token=names-test-token' })
        .then((e) => b.api.updateEndpoint({ id: e.id, name, enabled: false })),
  ],
];

let count = 0;
async function runThenCheck(run: Run, name: string): Promise<{ refused?: string; saved: string }> {
  const file = path.join(dir, `config-${++count}.json`);
  const start = SettingsSchema.parse({ servers: [stdio('existing')] });
  const store = new FileSettingsStore(file, start);
  store.save(start);
  const bridge = new Bridge({ store, logBook: new LogBook(), stateDir: null, env: {} });
  let refused: string | undefined;
  try {
    await run(bridge, name);
  } catch (error) {
    refused = (error as Error).message;
  } finally {
    await bridge.stop();
  }
  try {
    loadConfigFile(file, {});
  } catch (error) {
    const problems = error instanceof ConfigError ? error.problems.map(formatProblem).join('; ') : String(error);
    throw new Error(`after ${JSON.stringify(name)}, check refuses the saved file: ${problems}`);
  }
  return { ...(refused !== undefined ? { refused } : {}), saved: fs.readFileSync(file, 'utf8') };
}

describe('names the window saves are names check accepts', () => {
  for (const [command, run] of WRITES_A_KEY) {
    it(`${command} refuses __proto__, constructor and prototype, and check passes on what was saved`, async () => {
      for (const name of KEY_NAMES) {
        const { refused, saved } = await runThenCheck(run, name);
        expect(refused, `${command} with ${name}`).toMatch(/cannot be __proto__, constructor or prototype/);
        expect(saved).not.toContain(`"${name}"`);
      }
    });
  }

  for (const [command, run] of [...WRITES_A_KEY, ...WRITES_A_VALUE]) {
    it(`${command}: check passes after any name, refused or not`, async () => {
      for (const name of [...KEY_NAMES, ...OTHER_BAD_NAMES]) await runThenCheck(run, name);
    });
  }

  it('a server whose tool is called "constructor" cannot have its switches saved (instead of a file check refuses)', () => {
    const settings = SettingsSchema.parse({ servers: [stdio('s')] });
    expect(() => withServerTools(settings, 'all', 's', ['read', 'constructor'], false)).toThrow(
      /tool name "constructor" cannot be __proto__, constructor or prototype/,
    );
  });

  it('check refuses a server named like a forbidden key, with the same rule and where it stands', () => {
    const file = path.join(dir, 'hand-written.json');
    fs.writeFileSync(file, JSON.stringify({ servers: [stdio('constructor')] }, null, 2));
    const problems = (() => {
      try {
        loadConfigFile(file, {});
        return [];
      } catch (error) {
        return (error as ConfigError).problems.map(formatProblem);
      }
    })();
    expect(problems).toEqual([
      'line 4, column 15, at servers[0].name: cannot be __proto__, constructor or prototype (a config file refuses these as keys)',
    ]);
  });
});
