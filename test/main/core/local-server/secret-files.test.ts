import fs from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Bridge } from '../../../../src/main/core/bridge/bridge';
import { loadConfigFile } from '../../../../src/main/core/config/load-config';
import { FileSettingsStore, MemorySettingsStore } from '../../../../src/main/core/config/settings-store';
import { clientToken } from '../../../../src/main/core/local-server/client-tokens';
import { readStateFile } from '../../../../src/main/core/local-server/state-file';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { SettingsSchema } from '../../../../src/shared/settings';
import { logText } from '../../../helpers/bridge-harness';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

/** Files that hold secrets, as other users of the same computer see them (POSIX modes: not on Windows). */
const posix = process.platform !== 'win32';
const TOKEN = 'secret-files-token-0123456789abcdef';
const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

const tempDir = tempDirs('xt-secret-files-');
let bridge: Bridge | undefined;
afterEach(async () => {
  await bridge?.stop();
  bridge = undefined;
});
describe.skipIf(!posix)('our config file holds secrets: 0600 once it does', () => {
  it('makes a 644 config 600 when a save writes tokens or keys into it, and says what it was', () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(file, JSON.stringify({ servers: [] }), { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const told: number[] = [];
    const store = new FileSettingsStore(file, loadConfigFile(file, {}).settings, { onMadePrivate: (previous) => told.push(previous) });
    // Nothing secret yet: the file keeps the mode its owner gave it.
    store.save({ ...store.load(), ui: { ...store.load().ui, theme: 'dark' } });
    expect(modeOf(file)).toBe('644');
    expect(told).toEqual([]);
    // The local server's token (made by the app) and an endpoint's token are written: the file is the user's alone.
    const settings = store.load();
    store.save({
      ...settings,
      localServer: { ...settings.localServer, token: TOKEN },
      endpoints: [{ id: 'e', name: 'home', url: 'wss://api.xiaozhi.me/mcp/?token=eyJhbGciOiJIUzI1NiJ9.endpoint', enabled: true }],
    });
    expect(modeOf(file)).toBe('600');
    expect(told).toEqual([0o644]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).localServer.token).toBe(TOKEN);
    // Already private: nothing more to say.
    store.save(store.load());
    expect(told).toEqual([0o644]);
  });
});

describe.skipIf(!posix)('the state file for connect', () => {
  const logBook = new LogBook();
  function start(stateDir: string): Bridge {
    const settings = SettingsSchema.parse({ localServer: { enabled: true, port: 0, token: TOKEN } });
    bridge = new Bridge({ store: new MemorySettingsStore(settings), logBook, stateDir });
    bridge.start();
    return bridge;
  }

  it('is never written into a folder other users can write to (they could swap in their own address), and connect does not read one there', async () => {
    const stateDir = tempDir();
    fs.chmodSync(stateDir, 0o777);
    const b = start(stateDir);
    await waitFor(() => b.state().localServer?.state === 'listening', 10_000, 'the local server');
    await waitFor(() => /could not write the state file/.test(logText(logBook)), 5000, 'the warning');
    expect(logText(logBook)).toContain(
      `other users can write to its folder ${stateDir} (mode 777): anyone there could replace the file and receive the token. Use a folder only you can write to (XIAOZHI_TRAY_STATE_DIR)`,
    );
    expect(fs.readdirSync(stateDir)).toEqual([]);
    expect(logText(logBook)).not.toContain(TOKEN);

    // A state file someone left there is not trusted either.
    fs.writeFileSync(
      path.join(stateDir, 'local-server.json'),
      JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:9/mcp', token: TOKEN, version: '0', startedAt: 0 }),
      { mode: 0o600 },
    );
    expect(readStateFile(stateDir)).toEqual({
      ok: false,
      reason: 'untrusted',
      file: path.join(stateDir, 'local-server.json'),
      why: `other users can write to its folder ${stateDir} (mode 777)`,
    });
  });

  it("is the user's alone even when an old one was left readable by others", async () => {
    const stateDir = tempDir();
    const file = path.join(stateDir, 'local-server.json');
    fs.writeFileSync(file, '{}', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const b = start(stateDir);
    await waitFor(() => b.state().localServer?.state === 'listening', 10_000, 'the local server');
    await waitFor(() => readStateFile(stateDir).ok, 5000, 'the state file');
    expect(modeOf(file)).toBe('600');
  });
});

describe.skipIf(!posix)('"Add to …" into a file other users can read', () => {
  let home: string;
  beforeEach(() => {
    home = tempDir();
    // Stubbed, so that a variable that was unset is unset again after (assigning undefined back
    // leaves the string "undefined": a relative config folder for every later file of the worker).
    vi.stubEnv('HOME', home);
    vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  function cursorFile(mode: number): string {
    const file = path.join(home, '.cursor', 'mcp.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ mcpServers: {} }));
    fs.chmodSync(file, mode);
    return file;
  }

  function makeBridge(): Bridge {
    bridge = new Bridge({
      store: new MemorySettingsStore(SettingsSchema.parse({ localServer: { port: 0, token: TOKEN } })),
      logBook: new LogBook(),
      stateDir: null,
    });
    bridge.start();
    return bridge;
  }

  it('says so in the preview, and makes the file 600 when the user keeps that choice', async () => {
    const file = cursorFile(0o644);
    const b = makeBridge();
    const preview = await b.api.previewAddToClient({ client: 'cursor' });
    expect(preview.openToOthers).toBe('644');
    await b.api.applyAddToClient({ id: preview.id, makePrivate: true });
    expect(modeOf(file)).toBe('600');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers['xiaozhi-tray'].headers.Authorization).toBe(
      `Bearer ${clientToken(TOKEN, 'cursor')}`,
    );
    // Now private: nothing to warn about.
    expect((await b.api.previewAddToClient({ client: 'cursor' })).openToOthers).toBeUndefined();
  });

  it("keeps the owner's mode when the user says no, and says nothing for Claude Desktop's entry (no token in it)", async () => {
    const file = cursorFile(0o644);
    const b = makeBridge();
    const preview = await b.api.previewAddToClient({ client: 'cursor' });
    await b.api.applyAddToClient({ id: preview.id });
    expect(modeOf(file)).toBe('644');
    const claude = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
    fs.mkdirSync(path.dirname(claude), { recursive: true });
    fs.writeFileSync(claude, '{}', { mode: 0o644 });
    fs.chmodSync(claude, 0o644);
    expect((await b.api.previewAddToClient({ client: 'claude-desktop' })).openToOthers).toBeUndefined();
  });
});
