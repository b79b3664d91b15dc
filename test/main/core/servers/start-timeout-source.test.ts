import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { translator } from '../../../../src/shared/i18n/translate';
import { problemMessage } from '../../../../src/shared/problem-words';
import { type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

const tempDir = tempDirs('xt-start-source-');
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

/** A PATH whose `npx` starts and never answers, as npx does while a mirror it cannot reach keeps it waiting. */
function pathWithSilentNpx(): string {
  const dir = tempDir();
  const npx = path.join(dir, 'npx');
  fs.writeFileSync(npx, `#!${process.execPath}\nsetInterval(() => undefined, 1000);\n`, { mode: 0o755 });
  return `${dir}${path.delimiter}${process.env.PATH ?? ''}`;
}

async function timedOut(mirrors: { preset: 'china' | 'default' }) {
  harness = makeBridge(
    { mirrors, servers: [{ name: 'fs', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'] }] },
    { startTimeoutMs: 500, installTimeoutMs: 500, restartBaseMs: 600_000, restartMaxMs: 600_000, stopGraceMs: 500 },
    { env: { ...process.env, PATH: pathWithSilentNpx() } },
  );
  harness.bridge.start();
  const server = () => harness!.bridge.state().servers[0]!;
  await waitFor(
    () => server().lastErrorCause?.code === 'server.startTimeout',
    10_000,
    () => `the start timeout (state ${server().state}, cause ${server().lastErrorCause?.code ?? 'none'})`,
  );
  return server().lastErrorCause!;
}

describe.skipIf(process.platform === 'win32')("a start that times out names the download source in use for the server's runtime", () => {
  it('with the mainland China mirrors: says which one, and to switch sources in Settings if it cannot be reached', async () => {
    const cause = await timedOut({ preset: 'china' });
    for (const language of ['en', 'zh-CN'] as const) {
      const hint = problemMessage(translator(language), cause, undefined)?.hint ?? '';
      expect(hint).toContain('registry.npmmirror.com');
      expect(hint).toMatch(language === 'en' ? /Settings → Download sources/ : /“设置 → 下载源”/);
    }
  });

  it('with the official sources: the usual advice, no source named', async () => {
    const cause = await timedOut({ preset: 'default' });
    expect(problemMessage(translator('zh-CN'), cause, undefined)?.hint).toBe('首次运行可能仍在下载依赖：请重试，或查看其输出。');
  });
});

/** A PATH whose `npx` fails as npm does when its registry's name does not resolve. */
function pathWithOfflineNpx(host: string): string {
  const dir = tempDir();
  const npx = path.join(dir, 'npx');
  const lines = [
    'npm error code ENOTFOUND',
    `npm error network request to https://${host}/@modelcontextprotocol%2fserver-memory failed, reason: getaddrinfo ENOTFOUND ${host}`,
  ];
  fs.writeFileSync(npx, `#!${process.execPath}\nconsole.error(${JSON.stringify(lines.join('\n'))});\nprocess.exit(1);\n`, { mode: 0o755 });
  return `${dir}${path.delimiter}${process.env.PATH ?? ''}`;
}

describe.skipIf(process.platform === 'win32')('a registry out of reach, with the mainland China mirror already chosen', () => {
  it('does not advise choosing the mirror in use: it names it and says to switch (a walkthrough went in that circle)', async () => {
    harness = makeBridge(
      {
        mirrors: { preset: 'china' },
        servers: [{ name: 'memory', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }],
      },
      { startTimeoutMs: 5000, installTimeoutMs: 5000, restartBaseMs: 600_000, restartMaxMs: 600_000, stopGraceMs: 500 },
      { env: { ...process.env, PATH: pathWithOfflineNpx('registry.npmmirror.com') } },
    );
    harness.bridge.start();
    const server = () => harness!.bridge.state().servers[0]!;
    await waitFor(() => server().lastErrorCause?.code === 'server.registryUnreachable', 10_000, 'the registry failure');
    for (const language of ['en', 'zh-CN'] as const) {
      const hint = problemMessage(translator(language), server().lastErrorCause, undefined)?.hint ?? '';
      expect(hint).toContain('registry.npmmirror.com');
      expect(hint).not.toMatch(language === 'en' ? /choose the mainland China mirror/ : /选择中国大陆镜像/);
    }
  });
});

describe.skipIf(process.platform === 'win32')('a registry out of reach is retried on the backoff, never given up as a crash loop', () => {
  it('keeps restarting past the crash limit, with growing delays (a walkthrough saw a restart every 0.5 s, then a stop)', async () => {
    harness = makeBridge(
      { servers: [{ name: 'memory', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }] },
      { restartBaseMs: 20, restartMaxMs: 40, maxCrashes: 2, crashWindowMs: 600_000, stopGraceMs: 500 },
      { env: { ...process.env, PATH: pathWithOfflineNpx('registry.npmjs.org') } },
    );
    harness.bridge.start();
    const server = () => harness!.bridge.state().servers[0]!;
    // Before: the second failure counted as a crash loop and the server stayed failed.
    await waitFor(() => server().restarts >= 4 || server().state === 'failed', 20_000, 'four restarts or a stop');
    expect(server().state).not.toBe('failed');
    expect(server().lastErrorCause?.code).toBe('server.registryUnreachable');
  });
});
