// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { ServersPage } from '../../src/renderer/pages/servers-page';
import { type Harness, makeBridge, slowRestarts } from '../helpers/bridge-harness';
import { type FakeNpx, fakeNpx } from '../helpers/fake-npx';
import { startRawMcpHttp } from '../helpers/raw-mcp-http';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

let harness: Harness | undefined;
let npx: FakeNpx | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  npx?.remove();
  harness = undefined;
  npx = undefined;
});

// A crash whose cause the app has no words for (a key not given would be said as such: start-failure-cause.ts).
const throwing = "throw new Error('the FOO database is locked')";

describe('the server card of a server that crashed at start', () => {
  for (const [language, message, summary] of [
    ['en', 'The program stopped: Error: the FOO database is locked', /^Last output \(\d+ lines\)$/],
    ['zh-CN', '程序停止运行：Error: the FOO database is locked', /^最近输出（\d+ 行）$/],
  ] as const) {
    it(`shows the line that says why, and its whole output a click away (${language})`, async () => {
      harness = makeBridge(
        { servers: [{ name: 'node', transport: 'stdio', command: process.execPath, args: ['-e', throwing] }] },
        slowRestarts,
      );
      harness.bridge.start();
      const { store } = await renderWithBridge(harness, <ServersPage />, language);
      await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('restarting'), { timeout: scaled(10_000) });
      expect(await screen.findByText(message)).toBeTruthy();
      const details = screen.getByText(summary).closest('details')!;
      expect(details.open).toBe(false);
      // The whole tail, not its last 12 lines (a Node crash is ~14 lines: the Error line was cut off).
      expect(details.querySelector('pre')!.textContent).toMatch(
        /^\[eval\]:1\n[\s\S]*\nError: the FOO database is locked\n[\s\S]*Node\.js v\d+/,
      );
    });
  }
});

describe('the server card of a server that stopped for want of its key', () => {
  for (const [language, cause, said] of [
    ['en', /^It needs a key \(API key\) it was not given: press Edit/, 'The server said'],
    ['zh-CN', /^它需要的密钥（API Key）没有填：请点“编辑”/, '服务返回的原文'],
  ] as const) {
    it(`says the key is missing first, the server's own words folded below (${language})`, async () => {
      harness = makeBridge(
        {
          servers: [
            {
              name: 'node',
              transport: 'stdio',
              command: process.execPath,
              args: ['-e', "throw new Error('FOO_API_KEY environment variable is not set')"],
            },
          ],
        },
        slowRestarts,
      );
      harness.bridge.start();
      await renderWithBridge(harness, <ServersPage />, language);
      expect(await screen.findByText(cause, undefined, { timeout: scaled(10_000) })).toBeTruthy();
      const own = screen.getByText(said);
      expect((own.closest('details') as HTMLDetailsElement).open).toBe(false);
      expect(own.closest('details')!.textContent).toContain('FOO_API_KEY environment variable is not set');
    });
  }
});

const offlineNpm = [
  "process.stderr.write('npm error code ENOTFOUND\\n');",
  "process.stderr.write('npm error network request to https://registry.npmjs.org/some-mcp failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org\\n');",
  'process.exit(1);',
].join('');

describe('the server card of an npx that could not reach the registry', () => {
  for (const [language, message, hint, link] of [
    [
      'en',
      'Could not reach the site servers are downloaded from (registry.npmjs.org).',
      'In Settings → Download sources, choose another download source (in mainland China: the mainland China mirrors), or check that your network works.',
      'Open Download sources',
    ],
    [
      'zh-CN',
      '连不上下载服务的网站（registry.npmjs.org）。',
      '请在“设置 → 下载源”中换一个下载源（在中国大陆选“中国大陆镜像”），或检查网络是否正常。',
      '打开下载源设置',
    ],
  ] as const) {
    it(`says so in the reader's language and links to the download sources (${language})`, async () => {
      harness = makeBridge(
        { servers: [{ name: 'net', transport: 'stdio', command: process.execPath, args: ['-e', offlineNpm] }] },
        slowRestarts,
      );
      harness.bridge.start();
      await renderWithBridge(harness, <ServersPage />, language);
      // Before: "The program stopped: npm error network request to …", in English whatever the language.
      expect(await screen.findByText(message, undefined, { timeout: scaled(10_000) })).toBeTruthy();
      expect(screen.getByText(hint)).toBeTruthy();
      expect(screen.getByText(link).closest('a')!.getAttribute('href')).toBe('#/settings?section=mirrors');
      // npm's English lines add nothing to what the card says: a click away, not open (a walkthrough met them open).
      expect(document.querySelector('details.stderr')!.hasAttribute('open')).toBe(false);
    });
  }
});

describe.skipIf(process.platform === 'win32')('the server card of a first run', () => {
  // Plain words first; the runner and the package after them, in small grey text (a walkthrough met npx and the package first).
  for (const [language, badge, sentence, what] of [
    [
      'en',
      'Installing (first run)',
      'First use: downloading this server, which can take a few minutes; its tools appear by themselves once it is downloaded.',
      'npx is installing @acme/weather-mcp',
    ],
    [
      'zh-CN',
      '首次运行：安装中',
      '第一次使用，正在下载这个服务，可能需要几分钟；下载完成后它的工具会自动出现。',
      'npx 正在安装 @acme/weather-mcp',
    ],
  ] as const) {
    it(`says it is downloading and installing, not just "starting" (${language})`, async () => {
      npx = fakeNpx();
      harness = makeBridge(
        {
          servers: [npx.server(['-y', '@acme/weather-mcp'], { FAKE_NPX_SECONDS: '30' })],
        },
        { ...slowRestarts, startTimeoutMs: 60_000 },
      );
      harness.bridge.start();
      await renderWithBridge(harness, <ServersPage />, language);
      expect(await screen.findByText(badge, {}, { timeout: scaled(10_000) })).toBeTruthy();
      expect(screen.getByText(sentence).className).toBe('small');
      // The runner and the package only under 技术细节, folded (walkthrough 4 read "npx 正在安装 @…" on the card).
      const folded = screen.getByText(what).closest('details')!;
      expect(folded.open).toBe(false);
      expect(folded.querySelector('summary')!.textContent).toBe(language === 'en' ? 'Technical detail' : '技术细节');
    });
  }
});

describe('the server card of a remote server that refused the credentials', () => {
  for (const [language, message, hint] of [
    ['en', 'The server refused the credentials (HTTP 401).', /^Check the token or API key in this server's headers/],
    ['zh-CN', '服务器拒绝了凭据（HTTP 401）。', /^请检查该服务请求头中的令牌或 API 密钥/],
  ] as const) {
    it(`says it failed, why and what to do (${language})`, async () => {
      const refusing = await startRawMcpHttp((_message, res) => {
        res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"invalid_token"}');
        return true;
      });
      try {
        harness = makeBridge(
          { servers: [{ name: 'remote', transport: 'streamable-http', url: refusing.url }] },
          { ...slowRestarts, restartBaseMs: 50, restartMaxMs: 100 },
        );
        harness.bridge.start();
        const { store } = await renderWithBridge(harness, <ServersPage />, language);
        await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('failed'), { timeout: scaled(10_000) });
        expect(await screen.findByText(message)).toBeTruthy();
        expect(screen.getByText(hint)).toBeTruthy();
        expect(screen.queryByText(/invalid_token/)).toBeNull();
      } finally {
        await refusing.close();
      }
    });
  }
});

describe('the server card of a server that failed for good', () => {
  it('says it is no longer retried, words the error once, and offers one button to try again', async () => {
    harness = makeBridge(
      { servers: [{ name: 'node', transport: 'stdio', command: process.execPath, args: ['-e', throwing] }] },
      { ...slowRestarts, restartBaseMs: 20, restartMaxMs: 20, maxCrashes: 2 },
    );
    harness.bridge.start();
    const { store } = await renderWithBridge(harness, <ServersPage />);
    await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('failed'), { timeout: scaled(15_000) });
    await screen.findByText(/no longer retried/);
    expect(screen.queryByText(/It is restarted/)).toBeNull();
    expect(screen.getByText('The program stopped: Error: the FOO database is locked')).toBeTruthy();
    // The switch stops it; one button retries: no Start, Stop and Restart side by side.
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Restart' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });
});

describe('the server card of a program that exits without a word', () => {
  for (const [language, said, notSaid] of [
    ['zh-CN', /没有留下任何输出/, /下方/],
    ['en', /left no output/, /below/],
  ] as const) {
    it(`does not point at an output below that is not there (${language})`, async () => {
      harness = makeBridge(
        { servers: [{ name: 'quiet', transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(3)'] }] },
        slowRestarts,
      );
      harness.bridge.start();
      const { store } = await renderWithBridge(harness, <ServersPage />, language);
      await waitFor(() => expect(store.snapshot.state.servers[0]?.lastErrorCause).toBeDefined(), { timeout: scaled(10_000) });
      const problem = (await screen.findByText(said)).closest('.problem') as HTMLElement;
      expect(problem.textContent).not.toMatch(notSaid);
    });
  }
});
