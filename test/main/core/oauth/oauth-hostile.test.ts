import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { listenForRedirect } from '../../../../src/main/core/oauth/loopback-redirect';
import { FileVault, TOKENS_FILE_NAME, VaultRefused } from '../../../../src/main/core/oauth/token-vault';
import { englishText } from '../../../../src/main/core/problems/server-problems';
import { type Harness, logText, makeBridge } from '../../../helpers/bridge-harness';
import { type OAuthStandIn, type OAuthStandInOptions, startOAuthStandIn } from '../../../helpers/oauth-stand-in';
import { tempDirs } from '../../../helpers/temp-dirs';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

/**
 * Hostile sign-in servers: what a resource server or its sign-in server says must not make the app
 * open another scheme, send a code or secret where it should not, hang, or lose other sign-ins.
 */

const tempDir = tempDirs('xt-oauth-hostile-');
let harness: Harness | undefined;
let standIn: OAuthStandIn | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  await standIn?.close();
  standIn = undefined;
});

const supervision = { restartBaseMs: 50, restartMaxMs: 100, healthIntervalMs: 0, startTimeoutMs: 10_000, stopGraceMs: 500 };
const server = () => harness!.bridge.state().servers.find((s) => s.name === 'cloud')!;

/** A bridge with the server "cloud" behind the stand-in; sign-in pages go to `opened` (the desktop's system browser). */
async function setUp(
  options: OAuthStandInOptions,
  oauth?: { clientId: string; clientSecret?: string },
  signInTimeoutMs = 10_000,
  waitForSignIn = true,
  open = '',
) {
  standIn = await startOAuthStandIn(options);
  const opened: string[] = [];
  const vault = new FileVault(tempDir());
  harness = makeBridge(
    { servers: [{ name: 'cloud', transport: 'streamable-http', url: standIn.url, ...(oauth ? { oauth } : {}) }] },
    supervision,
    {
      env: { ...process.env, XIAOZHI_TRAY_OAUTH_OPEN: open },
      oauthVault: vault,
      signInTimeoutMs,
      host: {
        info: () => ({ carrier: 'web', platform: process.platform, secretStorage: 'config-file', launchAtLogin: null }),
        openExternal: (url) => void opened.push(url),
      },
    },
  );
  harness.bridge.start();
  if (waitForSignIn)
    await waitFor(
      () => server().state === 'failed',
      5000,
      () => `the server to wait for sign-in (${JSON.stringify(server())})`,
    );
  return { opened, vault };
}

/** A Sign in that cannot start answers why (the window says it in its language); here, in the engine's English. */
async function signInRefusal(): Promise<string> {
  const answer = await harness!.bridge.api.signIn({ name: 'cloud' });
  if (!('problem' in answer)) throw new Error(`the sign-in started: ${answer.url}`);
  return englishText(answer.problem);
}

describe('hostile sign-in servers', () => {
  it('a sign-in server named by a scheme other than https (ftp:, no metadata) is refused: nothing is opened', async () => {
    // Its defaults (/authorize, /token) would be on that scheme: the system would open ftp://…/authorize.
    const { opened } = await setUp(
      { authorizationServers: () => ['ftp://127.0.0.1/'], clients: { 'hand-made': 'hand-secret' } },
      { clientId: 'hand-made', clientSecret: 'hand-secret' },
    );
    expect(await signInRefusal()).toMatch(/https/);
    expect(opened).toEqual([]);
  });

  it("protected resource metadata for another server (RFC 9728's resource check) is refused before registering", async () => {
    const { opened } = await setUp({ resource: () => 'https://other.example/mcp' });
    // The connection stops once, saying why; it is not retried (it was, forever, with the SDK's own text).
    expect(server().lastErrorCause).toEqual({ code: 'server.signInFailed', params: { reason: 'resource' } });
    expect(server().restarts).toBe(0);
    expect(await signInRefusal()).toMatch(/sign-in failed/);
    expect(standIn!.requests).not.toContain('POST /register');
    expect(opened).toEqual([]);
  });

  it('a sign-in server whose metadata never answers: the sign-in fails in time, it does not hang', async () => {
    // The connection's own discovery hangs too (until its start timeout): the sign-in is pressed meanwhile.
    await setUp({ metadataHangs: true }, undefined, scaled(1500), false);
    const started = Date.now();
    expect(await signInRefusal()).toMatch(/sign-in/);
    expect(Date.now() - started).toBeLessThan(scaled(8000));
  });
});

describe('the vault against a gigantic token', () => {
  const record = (token: string) => ({ serverUrl: 'https://a.example/mcp', tokens: { access_token: token, token_type: 'Bearer' } });

  it('refuses a record that would make the file too big to read back, and keeps every other sign-in', async () => {
    const vault = new FileVault(tempDir());
    await vault.set('other', record('small-token'));
    // A hostile sign-in server's 1.2 MB token (a refresh answer is bounded only by the connection's larger bound).
    await expect(vault.set('cloud', record('x'.repeat(1_200_000)))).rejects.toThrow(VaultRefused);
    expect((await vault.get('other'))?.tokens?.access_token).toBe('small-token');
  });

  it('a sign-in whose token answer is gigantic fails, and the other servers stay signed in', async () => {
    const { vault } = await setUp({ accessTokenBytes: 1_200_000 });
    await vault.set('other', record('small-token'));
    const answer = await harness!.bridge.api.signIn({ name: 'cloud' });
    if (!('url' in answer)) throw new Error(`the sign-in did not start: ${JSON.stringify(answer.problem)}`);
    const { url } = answer;
    await (await fetch(url)).body?.cancel(); // the browser: the stand-in approves and sends it back to the app
    await waitFor(() => /sign-in failed/i.test(logText(harness!.logBook)), 10_000, 'the failed sign-in to be said');
    expect(logText(harness!.logBook)).not.toMatch(/timeout/);
    expect((await vault.get('other'))?.tokens?.access_token).toBe('small-token');
    expect((await vault.get('cloud'))?.tokens).toBeUndefined();
  });
});

describe('a sign-in being set up when the app stops', () => {
  it('leaves no redirect listener behind once it is set up', async () => {
    await setUp({ metadataDelayMs: 300 }, undefined, 60_000, false);
    const listeners = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    const before = listeners();
    const pressed = harness!.bridge.api.signIn({ name: 'cloud' });
    await harness!.bridge.stop();
    // Stopped meanwhile: the sign-in answers why it ended (the window says it), it does not hang.
    expect(await pressed).toMatchObject({ problem: { code: 'server.signInFailed' } });
    await waitFor(
      () => listeners() <= before,
      2000,
      () => `the redirect listener to close (${listeners()} > ${before})`,
    );
  });
});

describe('two sign-ins of one server at once (a double click, the window and the web UI)', () => {
  it('the last one is the one kept: the other gives up its redirect listener, and the last signs in', async () => {
    await setUp({});
    const answers = await Promise.allSettled([
      harness!.bridge.api.signIn({ name: 'cloud' }),
      harness!.bridge.api.signIn({ name: 'cloud' }),
    ]);
    const urls = answers.flatMap((a) => (a.status === 'fulfilled' && 'url' in a.value ? [a.value.url] : []));
    const listening = async (url: string) => {
      const callback = new URL(url).searchParams.get('redirect_uri')!;
      return fetch(callback).then(
        async (response) => (await response.body?.cancel(), true),
        () => false,
      );
    };
    const open = await Promise.all(urls.map(listening));
    expect(open.filter(Boolean)).toHaveLength(1);
    const kept = urls[open.indexOf(true)]!;
    await (await fetch(kept)).body?.cancel();
    await waitFor(
      () => server().state === 'running',
      10_000,
      () => `the server to run (${JSON.stringify(server())})`,
    );
  });
});

describe('XIAOZHI_TRAY_OAUTH_OPEN=fetch|auto: the sign-in page is followed by GET', () => {
  it('follows no redirect to another site (another local port): only the sign-in server and our callback', async () => {
    const hits: string[] = [];
    const victim = http.createServer((req, res) => void (hits.push(req.url ?? ''), res.end('ok')));
    await new Promise<void>((resolve) => victim.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = (victim.address() as { port: number }).port;
      await setUp({ authorizeRedirect: `http://127.0.0.1:${port}/admin/delete-everything` }, undefined, scaled(1500), true, 'fetch');
      await harness!.bridge.api.signIn({ name: 'cloud' });
      await waitFor(() => /sign-in failed/i.test(logText(harness!.logBook)), 10_000, 'the sign-in to time out');
      expect(hits).toEqual([]);
    } finally {
      await new Promise((resolve) => victim.close(resolve));
    }
  });
});

describe('the tokens file replaced by a symlink', () => {
  it.skipIf(process.platform === 'win32')('is neither read nor written through: the link target stays as it was', async () => {
    const dir = tempDir();
    const elsewhere = path.join(tempDir(), 'precious.txt');
    fs.writeFileSync(elsewhere, 'precious\n', { mode: 0o644 });
    fs.symlinkSync(elsewhere, path.join(dir, TOKENS_FILE_NAME));
    const vault = new FileVault(dir);
    await vault.set('cloud', { serverUrl: 'https://a.example/mcp', tokens: { access_token: 'tok', token_type: 'Bearer' } });
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe('precious\n');
    const file = path.join(dir, TOKENS_FILE_NAME);
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await vault.get('cloud'))?.tokens?.access_token).toBe('tok');
  });
});

describe('hostile requests to the loopback callback', () => {
  it('a flood of forged answers and an error carrying a script change nothing: the real answer is still taken', async () => {
    const redirect = await listenForRedirect(scaled(10_000));
    try {
      const answer = redirect.answer(() => 'the-state');
      const forged = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          fetch(`${redirect.url}?code=stolen-${i}&state=guess-${i}&error=${encodeURIComponent('<script>alert(1)</script>')}`).then(
            async (r) => ({ status: r.status, text: await r.text() }),
          ),
        ),
      );
      expect(forged.every((r) => r.status === 400 && !r.text.includes('<script>'))).toBe(true);
      const denied = await fetch(`${redirect.url}?state=the-state&error=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
      expect(await denied.text()).not.toContain('<img');
      await expect(answer).resolves.toEqual({ error: '<img src=x onerror=alert(1)>' });
    } finally {
      redirect.close();
    }
  });
});
