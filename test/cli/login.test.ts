import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { FileVault, TOKENS_FILE_NAME } from '../../src/main/core/oauth/token-vault';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { type OAuthStandIn, startOAuthStandIn } from '../helpers/oauth-stand-in';
import { waitFor } from '../helpers/wait';
import { CliHarness } from './cli-harness';

const h = new CliHarness();
let standIn: OAuthStandIn | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  await standIn?.close();
  standIn = undefined;
  await h.cleanup();
});

describe('xiaozhi-tray login SERVER', () => {
  it('signs in (the page followed by the test seam), keeps the tokens 0600 beside the state file, and the running app connects', async () => {
    standIn = await startOAuthStandIn();
    const stateDir = h.tempDir();
    const file = h.writeConfig({ mcpServers: { cloud: { type: 'http', url: standIn.url } } });
    // The running app, reading the same folder.
    harness = makeBridge({ servers: [{ name: 'cloud', transport: 'streamable-http', url: standIn.url }] }, undefined, {
      oauthVault: new FileVault(stateDir),
    });
    harness.bridge.start();
    const status = () => harness!.bridge.state().servers[0]!;
    await waitFor(() => status().state === 'failed', 5000, 'the app to wait for sign-in');
    expect(status().lastErrorCause?.code).toBe('server.needsSignIn');

    const run = await h.answered(['login', 'cloud', '--config', file], {
      env: { XIAOZHI_TRAY_STATE_DIR: stateDir, XIAOZHI_TRAY_OAUTH_OPEN: 'fetch', BROWSER: '' },
    });
    expect(run.err).not.toContain('failed');
    expect(run.code).toBe(0);
    expect(run.out).toContain('Open this address in a browser to sign in to "cloud":');
    expect(run.out).toMatch(new RegExp(`\\n${standIn.base.replace(/[.]/g, '\\.')}/authorize\\?`));
    expect(run.out).toContain('Signed in to "cloud".');
    // Said for a browser on another computer: the port the page comes back to, and how to forward it.
    expect(run.err).toMatch(/Forward that port first, there: ssh -L (\d+):127\.0\.0\.1:\1 \S+@\S+/);
    const tokens = path.join(stateDir, TOKENS_FILE_NAME);
    if (process.platform !== 'win32') expect(fs.statSync(tokens).mode & 0o777).toBe(0o600);
    for (const secret of standIn.secrets) expect(run.out + run.err).not.toContain(secret);

    await waitFor(() => status().state === 'running', 10_000, 'the running app to connect once the tokens are saved');
  });

  it('names the remote servers when the one asked for is not there, in Chinese too', async () => {
    const file = h.writeConfig({ mcpServers: { web: { type: 'http', url: 'http://127.0.0.1:9/mcp' }, local: { command: 'node' } } });
    const run = await h.answered(['login', 'nope', '--config', file]);
    expect(run.code).toBe(1);
    expect(run.err).toContain('The config has no server called "nope". Its remote servers: web');
    const local = await h.answered(['login', 'local', '--config', file, '--lang', 'zh-CN']);
    expect(local.err).toContain('“local”不是远程 MCP 服务');
  });

  it('refuses a folder others can write to for the tokens, saying so', async () => {
    if (process.platform === 'win32') return;
    standIn = await startOAuthStandIn();
    const stateDir = h.tempDir();
    fs.chmodSync(stateDir, 0o777);
    const file = h.writeConfig({ mcpServers: { cloud: { type: 'http', url: standIn.url } } });
    const run = await h.answered(['login', 'cloud', '--config', file], {
      env: { XIAOZHI_TRAY_STATE_DIR: stateDir, XIAOZHI_TRAY_OAUTH_OPEN: 'fetch' },
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      'Sign-in to "cloud" failed: sign-in failed: it could not be saved: other users can write to the app\'s folder',
    );
    expect(fs.existsSync(path.join(stateDir, TOKENS_FILE_NAME))).toBe(false);
  });
});
