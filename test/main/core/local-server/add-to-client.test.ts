import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Bridge } from '../../../../src/main/core/bridge/bridge';
import { MemorySettingsStore } from '../../../../src/main/core/config/settings-store';
import { AddToClientSessions, planFileEdit } from '../../../../src/main/core/local-server/add-to-client';
import { clientToken } from '../../../../src/main/core/local-server/client-tokens';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { SettingsSchema } from '../../../../src/shared/settings';
import { tempDirs } from '../../../helpers/temp-dirs';

const TOKEN = 'add-to-test-token-0123456789abcdef';
const entry = { url: 'http://127.0.0.1:18790/mcp/cursor', headers: { Authorization: `Bearer ${TOKEN}` } };

describe('"Add to …": editing a client\'s file', () => {
  it('adds our entry and keeps everything else: other servers, settings, comments, indentation', () => {
    const text =
      '{\n    // my servers\n    "mcpServers": {\n        "github": { "command": "npx", "args": ["-y", "gh"] }\n    },\n    "theme": "dark"\n}\n';
    const plan = planFileEdit('cursor', 'mcp.json', text, entry);
    expect(plan.action).toBe('add');
    expect(plan.otherServers).toEqual(['github']);
    expect(plan.text).toContain('// my servers');
    expect(plan.text).toContain('"github": { "command": "npx", "args": ["-y", "gh"] }');
    expect(plan.text).toContain('"theme": "dark"');
    expect(plan.text).toMatch(/\n {8}"xiaozhi-tray": \{/);
    expect(planFileEdit('cursor', 'mcp.json', plan.text, entry)).toMatchObject({ action: 'unchanged', text: plan.text });
    // An empty servers object, a byte-order mark and CRLF line ends are respected too.
    const windows = planFileEdit('claude-desktop', 'c.json', '\uFEFF{\r\n  "mcpServers": {}\r\n}\r\n', { command: 'x' });
    expect(windows.text).toBe('\uFEFF{\r\n  "mcpServers": {\r\n    "xiaozhi-tray": {\r\n      "command": "x"\r\n    }\r\n  }\r\n}\r\n');
    const moved = planFileEdit('cursor', 'mcp.json', plan.text, { ...entry, url: 'http://127.0.0.1:9999/mcp/cursor' });
    expect(moved.action).toBe('replace');
    expect(moved.text).toContain('9999');
    expect(moved.text).not.toContain('18790');
  });

  it("keeps the comments of an empty servers object (or file), and a comment that ends the last server's line stays on that line", () => {
    const template = planFileEdit('cursor', 'mcp.json', '{\n  "mcpServers": {\n    // add your servers here\n  }\n}\n', entry);
    expect(template.text).toBe(
      '{\n  "mcpServers": {\n    "xiaozhi-tray": {\n      "url": "http://127.0.0.1:18790/mcp/cursor",\n      "headers": {\n        "Authorization": "Bearer add-to-test-token-0123456789abcdef"\n      }\n    }\n    // add your servers here\n  }\n}\n',
    );
    expect(planFileEdit('cursor', 'mcp.json', '{ "mcpServers": { /* none yet */ } }', entry).text).toContain('/* none yet */');
    const root = planFileEdit('claude-desktop', 'c.json', '{\n  // written by hand\n}\n', { command: 'x' });
    expect(root.text).toContain('// written by hand');
    expect(JSON.parse(root.text.replace('// written by hand', ''))).toEqual({ mcpServers: { 'xiaozhi-tray': { command: 'x' } } });
    const noted = planFileEdit(
      'cursor',
      'mcp.json',
      '{\n  "mcpServers": {\n    "github": { "command": "gh" } // the work account\n  }\n}\n',
      entry,
    );
    expect(noted.text).toMatch(
      /^\{\n {2}"mcpServers": \{\n {4}"github": \{ "command": "gh" \}, \/\/ the work account\n {4}"xiaozhi-tray": \{\n/,
    );
  });

  it('writes VS Code entries under "servers", and a new file when there is none', () => {
    expect(JSON.parse(planFileEdit('vscode', 'mcp.json', undefined, { type: 'http', url: 'u' }).text)).toEqual({
      servers: { 'xiaozhi-tray': { type: 'http', url: 'u' } },
    });
    const withInputs = planFileEdit('vscode', 'mcp.json', '{ "inputs": [], "servers": {} }', { type: 'http', url: 'u' });
    expect(JSON.parse(withInputs.text)).toEqual({ inputs: [], servers: { 'xiaozhi-tray': { type: 'http', url: 'u' } } });
  });

  it('refuses a file that is not valid JSON, saying where, rather than overwrite it', () => {
    expect(() => planFileEdit('cursor', '/x/mcp.json', '{\n  "mcpServers": {\n    "a": 1,,\n  }\n}', entry)).toThrow(
      /^\/x\/mcp\.json: line 3, column 12: invalid JSON: expected a property name in double quotes; fix it first\. Nothing was written\.$/,
    );
    expect(() => planFileEdit('cursor', 'mcp.json', '[1, 2]', entry)).toThrow(/does not hold a JSON object/);
    expect(() => planFileEdit('cursor', 'mcp.json', '{"mcpServers": []}', entry)).toThrow(/"mcpServers" in mcp\.json is not an object/);
  });
});

describe('"Add to …": the file itself', () => {
  const tempDir = tempDirs('xt-addfile-');
  const pending = (file: string) => ({ client: 'cursor' as const, path: file, toolSet: 'default', at: Date.now() });

  it('refuses a file with "mcpServers" twice (JSON readers use the last one), naming its line', () => {
    const text = '{\n  "mcpServers": { "a": { "command": "x" } },\n  "theme": "dark",\n  "mcpServers": { "b": { "command": "y" } }\n}\n';
    expect(() => planFileEdit('cursor', '/x/mcp.json', text, entry)).toThrow(
      /^\/x\/mcp\.json: line 4, column 3, .*"mcpServers" appears twice.*Nothing was written\.$/,
    );
  });

  it.skipIf(process.platform === 'win32')("keeps the file's own mode", async () => {
    const file = path.join(tempDir(), 'mcp.json');
    fs.writeFileSync(file, '{ "mcpServers": {} }\n');
    fs.chmodSync(file, 0o664);
    await AddToClientSessions.write(pending(file), entry);
    expect(fs.statSync(file).mode & 0o777).toBe(0o664);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers['xiaozhi-tray']).toEqual(entry);
  });

  it.skipIf(process.platform === 'win32')('writes through a symlink, a dangling one too, and keeps the link', async () => {
    const dir = tempDir();
    const dotfiles = path.join(dir, 'dotfiles');
    fs.mkdirSync(dotfiles);
    const link = path.join(dir, 'mcp.json');
    fs.symlinkSync(path.join('dotfiles', 'cursor-mcp.json'), link);
    await AddToClientSessions.write(pending(link), entry);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dotfiles, 'cursor-mcp.json'), 'utf8')).mcpServers['xiaozhi-tray']).toEqual(entry);
    // A link to a folder that is not there: said plainly, nothing written.
    const nowhere = path.join(dir, 'nowhere.json');
    fs.symlinkSync(path.join(dir, 'gone', 'mcp.json'), nowhere);
    await expect(AddToClientSessions.write(pending(nowhere), entry)).rejects.toThrow(
      `${nowhere} is a link to ${path.join(dir, 'gone', 'mcp.json')}, whose folder does not exist; nothing was written.`,
    );
    expect(fs.lstatSync(nowhere).isSymbolicLink()).toBe(true);
  });
});

describe('"Add to …" through the bridge', () => {
  let home: string;
  let bridge: Bridge | undefined;

  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-addto-'));
    // Stubbed, so that a variable that was unset is unset again after (assigning undefined back
    // leaves the string "undefined": a relative config folder for every later file of the worker).
    vi.stubEnv('HOME', home);
    vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
  });
  afterEach(async () => {
    await bridge?.stop();
    bridge = undefined;
    vi.unstubAllEnvs();
    fs.rmSync(home, { recursive: true, force: true });
  });

  function makeBridge(openExternal?: (url: string) => void): Bridge {
    const settings = SettingsSchema.parse({ toolSets: [{ name: 'coding' }], localServer: { port: 0, token: TOKEN } });
    bridge = new Bridge({
      store: new MemorySettingsStore(settings),
      logBook: new LogBook(),
      stateDir: null,
      host: {
        info: () => ({ carrier: 'electron', platform: 'linux', secretStorage: 'encrypted', launchAtLogin: false }),
        connectCommand: () => ({
          command: '/opt/Xiaozhi Tray/xiaozhi-tray',
          args: ['/opt/Xiaozhi Tray/resources/app.asar/out/cli/index.js'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        }),
        ...(openExternal ? { openExternal } : {}),
      },
    });
    bridge.start();
    return bridge;
  }

  it("previews (token masked), then writes Cursor's file atomically, turning the local server on for the chosen set", async () => {
    const cursorFile = path.join(home, '.cursor', 'mcp.json');
    fs.mkdirSync(path.dirname(cursorFile), { recursive: true });
    fs.writeFileSync(cursorFile, JSON.stringify({ mcpServers: { other: { url: 'https://example.com/mcp' } } }, null, 2));
    const b = makeBridge();
    const preview = await b.api.previewAddToClient({ client: 'cursor', toolSet: 'coding' });
    expect(preview).toMatchObject({
      client: 'cursor',
      path: cursorFile,
      exists: true,
      action: 'add',
      otherServers: ['other'],
      toolSet: 'coding',
      turnsServerOn: true,
      entryName: 'xiaozhi-tray',
    });
    expect(preview.entry).not.toContain(TOKEN);
    expect(preview.entry).not.toContain(clientToken(TOKEN, 'cursor'));
    expect(preview.entry).toContain(`Bearer ${clientToken(TOKEN, 'cursor').slice(0, 4)}…(redacted)`);
    // A preview changes nothing.
    expect(JSON.parse(fs.readFileSync(cursorFile, 'utf8'))).toEqual({ mcpServers: { other: { url: 'https://example.com/mcp' } } });

    const applied = await b.api.applyAddToClient({ id: preview.id });
    expect(applied).toEqual({ path: cursorFile, opened: false });
    const written = JSON.parse(fs.readFileSync(cursorFile, 'utf8'));
    const url = b.state().localServer?.url as string;
    expect(written.mcpServers.other).toEqual({ url: 'https://example.com/mcp' });
    // Cursor's own token, which opens /mcp/cursor only.
    expect(written.mcpServers['xiaozhi-tray']).toEqual({
      url: `${url}/cursor`,
      headers: { Authorization: `Bearer ${clientToken(TOKEN, 'cursor')}` },
    });
    expect(fs.readdirSync(path.dirname(cursorFile))).toEqual(['mcp.json']);
    const settings = await b.api.getSettings();
    expect(settings.localServer).toMatchObject({ enabled: true, clients: { cursor: { toolSet: 'coding' } } });
    await expect(b.api.applyAddToClient({ id: preview.id })).rejects.toThrow(/expired/);
  });

  it('gives Claude Desktop the connect command, and Cherry Studio a link and JSON to paste', async () => {
    const opened: string[] = [];
    const b = makeBridge((url) => void opened.push(url));
    const claude = await b.api.previewAddToClient({ client: 'claude-desktop' });
    expect(claude.path).toBe(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'));
    expect(claude.exists).toBe(false);
    await b.api.applyAddToClient({ id: claude.id });
    expect(JSON.parse(fs.readFileSync(claude.path as string, 'utf8'))).toEqual({
      mcpServers: {
        'xiaozhi-tray': {
          command: '/opt/Xiaozhi Tray/xiaozhi-tray',
          args: ['/opt/Xiaozhi Tray/resources/app.asar/out/cli/index.js', 'connect', '--client', 'claude-desktop'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      },
    });

    const cherry = await b.api.previewAddToClient({ client: 'cherry-studio' });
    expect(cherry.path).toBeUndefined();
    expect(cherry.link).toMatch(/^cherrystudio:\/\/mcp\/install\?servers=/);
    const decoded = JSON.parse(
      Buffer.from(decodeURIComponent((cherry.link as string).split('servers=')[1] as string), 'base64').toString('utf8'),
    );
    expect(decoded.mcpServers['xiaozhi-tray']).toMatchObject({
      type: 'streamableHttp',
      baseUrl: expect.stringMatching(/\/mcp\/cherry-studio$/),
      headers: { Authorization: `Bearer ${clientToken(TOKEN, 'cherry-studio')}` },
    });
    expect(JSON.parse(cherry.copyText as string)).toEqual(decoded);
    expect(await b.api.applyAddToClient({ id: cherry.id })).toEqual({ opened: true });
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/^cherrystudio:\/\/mcp\/install\?servers=/);
  });

  it('never overwrites a broken file', async () => {
    const cursorFile = path.join(home, '.cursor', 'mcp.json');
    fs.mkdirSync(path.dirname(cursorFile), { recursive: true });
    fs.writeFileSync(cursorFile, '{ "mcpServers": { oops } }');
    const b = makeBridge();
    await expect(b.api.previewAddToClient({ client: 'cursor' })).rejects.toThrow(/invalid JSON/);
    expect(fs.readFileSync(cursorFile, 'utf8')).toBe('{ "mcpServers": { oops } }');
  });
});
