import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { loadConfigFile } from '../../../../src/main/core/config/load-config';
import { FileSettingsStore } from '../../../../src/main/core/config/settings-store';
import { startAtomicWrite, writeFileAtomic } from '../../../../src/main/core/system/atomic-write';
import { tempDirs } from '../../../helpers/temp-dirs';

const tempDir = tempDirs('xt-store-');
afterEach(() => {
  vi.restoreAllMocks();
});
function storeFor(file: string): FileSettingsStore {
  return new FileSettingsStore(file, loadConfigFile(file, {}).settings);
}

describe('the config file store', () => {
  it('keeps keys it does not know (top level, per server, per endpoint) when it saves', () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        $schema: './schema.json',
        comment: '我的配置',
        endpoints: [{ id: 'e1', name: 'home', url: 'wss://api.xiaozhi.me/mcp/?token=abc', note: 'kitchen' }],
        servers: [{ name: 'fx', transport: 'stdio', command: 'node', owner: 'me' }],
      }),
    );
    const store = storeFor(file);
    const settings = store.load();
    settings.ui.theme = 'dark';
    store.save(settings);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.$schema).toBe('./schema.json');
    expect(written.comment).toBe('我的配置');
    expect(written.endpoints[0].note).toBe('kitchen');
    expect(written.servers[0].owner).toBe('me');
    expect(written.ui.theme).toBe('dark');
  });

  it("moves a version 1 file's `tools` into the default set when it saves, instead of leaving a dead copy that check calls ignored", () => {
    const file = path.join(tempDir(), 'tray.json');
    const text =
      '{\n  // mine\n  "version": 1,\n  "servers": [{ "name": "fx", "transport": "stdio", "command": "node" }],\n  "tools": { "fx": { "echo": { "enabled": false } } }\n}\n';
    fs.writeFileSync(file, text);
    const store = storeFor(file);
    const settings = store.load();
    (settings.toolSets[0] as { tools: Record<string, Record<string, { enabled: boolean }>> }).tools.fx = {
      echo: { enabled: false },
      big: { enabled: false },
    };
    store.save(settings);
    const written = fs.readFileSync(file, 'utf8');
    expect(written).toContain('// mine');
    const parsed = JSON.parse(written.replace('// mine', ''));
    expect(parsed.version).toBe(3);
    expect(parsed).not.toHaveProperty('tools');
    expect(parsed.toolSets[0].tools).toEqual({ fx: { echo: { enabled: false }, big: { enabled: false } } });
    expect(loadConfigFile(file, {}).warnings ?? []).toEqual([]);
    // A file with no version is a version 1 file too (as the loader reads it).
    const bare = path.join(tempDir(), 'bare.json');
    fs.writeFileSync(bare, JSON.stringify({ servers: [], tools: { fx: { echo: { enabled: false } } } }));
    const bareStore = storeFor(bare);
    const loaded = bareStore.load();
    loaded.ui.theme = 'dark';
    bareStore.save(loaded);
    const bareWritten = JSON.parse(fs.readFileSync(bare, 'utf8'));
    expect(bareWritten).not.toHaveProperty('tools');
    expect(bareWritten.toolSets[0].tools).toEqual({ fx: { echo: { enabled: false } } });
  });

  it('writes through a symlinked config instead of replacing the link', () => {
    const dir = tempDir();
    const real = path.join(dir, 'real.json');
    const link = path.join(dir, 'link.json');
    fs.writeFileSync(real, '{"servers": []}');
    fs.symlinkSync(real, link);
    const store = storeFor(link);
    const settings = store.load();
    settings.ui.language = 'zh-CN';
    store.save(settings);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(real, 'utf8')).ui.language).toBe('zh-CN');
  });

  it('removes temporary files left by a save that was killed, and only those', () => {
    const dir = tempDir();
    const file = path.join(dir, 'tray.json');
    fs.writeFileSync(file, '{"servers": []}');
    // pid 2^22+1 is above Linux's pid_max default: no process has it.
    const orphan = path.join(dir, `.tray.json.${2 ** 22 + 1}.1700000000000.tmp`);
    // A process that is running (this test's parent) may be saving right now.
    const live = path.join(dir, `.tray.json.${process.ppid}.1700000000001.tmp`);
    const other = path.join(dir, '.other.json.1.2.tmp');
    for (const f of [orphan, live, other]) fs.writeFileSync(f, '{"secret": true}');
    storeFor(file);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
  });

  it('removes the temporary file of an earlier process that had this same pid (PID 1 in a container, every start)', () => {
    const dir = tempDir();
    const file = path.join(dir, 'tray.json');
    fs.writeFileSync(file, '{"servers": []}');
    const started = Date.now() - process.uptime() * 1000;
    const before = path.join(dir, `.tray.json.${process.pid}.${Math.floor(started - 60_000)}.tmp`);
    fs.writeFileSync(before, '{"secret": true}');
    storeFor(file);
    expect(fs.existsSync(before)).toBe(false);
  });

  it('retries a rename that Windows refuses for a moment (antivirus holding the file), without blocking the thread', async () => {
    const file = path.join(tempDir(), 'tray.json');
    // Windows' transient EPERM/EBUSY cannot happen on this machine: the refusal is put in the rename.
    const rename = refusing(2, 'EBUSY');
    const write = startAtomicWrite(file, '{"ok": true}', { rename });
    // The call came back before the retries: what was queued meanwhile runs while they wait.
    expect(write.inPlace).toBe(false);
    let ranMeanwhile = false;
    setImmediate(() => (ranMeanwhile = true));
    await write.done;
    expect(ranMeanwhile).toBe(true);
    expect(rename.calls).toBe(3);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ ok: true });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['tray.json']);
    // writeFileAtomic is the same write, awaited.
    await writeFileAtomic(file, '{"again": true}', { rename: refusing(1, 'EPERM') });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ again: true });
  });

  it('gives up after about a second, leaves the old file intact and no temporary file behind', async () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(file, '{"old": true}');
    const rename = refusing(Infinity, 'EPERM');
    await expect(writeFileAtomic(file, '{"new": true}', { rename })).rejects.toThrow(/EPERM/);
    expect(rename.calls).toBe(11);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ old: true });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['tray.json']);
  });

  it('throws at once what no retry can fix, and keeps the settings it had', () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(file, '{"servers": []}');
    const rename = refusing(Infinity, 'EXDEV');
    const store = new FileSettingsStore(file, loadConfigFile(file, {}).settings, { rename });
    const settings = store.load();
    settings.ui.theme = 'dark';
    expect(() => store.save(settings)).toThrow(/EXDEV/);
    expect(rename.calls).toBe(1);
    expect(store.load().ui.theme).not.toBe('dark');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['tray.json']);
  });

  it('saves at once and lets the file follow when Windows holds it; a later save supersedes one still retried', async () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(file, '{"servers": []}');
    const rename = refusing(3, 'EBUSY');
    const backups: string[] = [];
    const store = new FileSettingsStore(file, loadConfigFile(file, {}).settings, { rename, onExternalChange: (b) => backups.push(b) });
    const first = store.load();
    first.ui.theme = 'dark';
    store.save(first);
    // The settings changed; the file follows once the rename goes through.
    expect(store.load().ui.theme).toBe('dark');
    const second = store.load();
    second.ui.language = 'zh-CN';
    // The file still holds what we last put there: no "changed by another program" here.
    store.save(second);
    await store.settled();
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.ui).toMatchObject({ theme: 'dark', language: 'zh-CN' });
    expect(backups).toEqual([]);
    // The first save's retries stopped (its temporary file went with them): it cannot land later over the second.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['tray.json']);
    expect(rename.calls).toBe(4);
  });

  it('stops retrying a write that was cancelled, and removes its temporary file', async () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(file, '{"old": true}');
    const rename = refusing(Infinity, 'EBUSY');
    const write = startAtomicWrite(file, '{"superseded": true}', { rename });
    write.cancel();
    await write.done;
    expect(rename.calls).toBe(1);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ old: true });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['tray.json']);
  });

  it('says a save that never reached the file, and settled() rejects with it', async () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(file, '{"servers": []}');
    const failures: unknown[] = [];
    const store = new FileSettingsStore(file, loadConfigFile(file, {}).settings, {
      rename: refusing(Infinity, 'EACCES'),
      onSaveFailed: (error) => failures.push(error),
    });
    const settings = store.load();
    settings.ui.theme = 'dark';
    store.save(settings);
    await expect(store.settled()).rejects.toThrow(/EACCES/);
    expect(failures).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ servers: [] });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['tray.json']);
  });
});

/** fs.renameSync, refusing its first `times` calls with `code` as Windows does while a file is held. */
function refusing(times: number, code: string): ((from: string, to: string) => void) & { calls: number } {
  const rename = Object.assign(
    (from: string, to: string) => {
      if (rename.calls++ < times) throw Object.assign(new Error(`${code}: refused, rename '${from}' -> '${to}'`), { code });
      fs.renameSync(from, to);
    },
    { calls: 0 },
  );
  return rename;
}

describe('writing back a config the user edits by hand', () => {
  it('keeps comments, layout and unknown keys at every level, and its permissions', () => {
    const file = path.join(tempDir(), 'tray.jsonc');
    const original = `{
  // my bridge, see README
  "$schema": "./schema.json",
  "servers": [
    { "name": "fx", "transport": "stdio", "command": "node", "owner": "me" }, // the fixture
  ],
  "limits": { "callTimeoutMs": 30000, "note": "slow servers" },
  "ui": { "theme": "light", "fontSize": 14 },
}
`;
    fs.writeFileSync(file, original, { mode: 0o644 });
    const store = storeFor(file);
    const settings = store.load();
    settings.ui.theme = 'dark';
    store.save(settings);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('// my bridge, see README');
    expect(text).toContain('// the fixture');
    expect(text).toContain('"$schema": "./schema.json"');
    expect(text).toMatch(/"owner": "me"/);
    expect(text).toMatch(/"note": "slow servers"/);
    expect(text).toMatch(/"fontSize": 14/);
    expect(text).toMatch(/"theme": "dark"/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
    // Still a config we read the same way.
    expect(loadConfigFile(file, {}).settings.ui.theme).toBe('dark');
  });

  it('does not bring back a field the user removed in the window', () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ servers: [{ name: 'fx', transport: 'stdio', command: 'node', cwd: '/tmp', callTimeoutMs: 5000 }] }),
    );
    const store = storeFor(file);
    const settings = store.load();
    const fx = settings.servers[0]!;
    if (fx.transport !== 'stdio') throw new Error('stdio expected');
    delete fx.cwd;
    delete fx.callTimeoutMs;
    store.save(settings);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.servers[0].cwd).toBeUndefined();
    expect(written.servers[0].callTimeoutMs).toBeUndefined();
  });

  it('keeps a copy of what another program wrote meanwhile, and says where', () => {
    const file = path.join(tempDir(), 'tray.json');
    fs.writeFileSync(file, '{"servers": []}');
    const backups: string[] = [];
    const store = new FileSettingsStore(file, loadConfigFile(file, {}).settings, { onExternalChange: (backup) => backups.push(backup) });
    const imported = '{"servers": [{"name": "imported", "transport": "stdio", "command": "node"}]}';
    fs.writeFileSync(file, imported);
    store.save(store.load());
    expect(backups).toHaveLength(1);
    expect(fs.readFileSync(backups[0]!, 'utf8')).toBe(imported);
  });
});
