// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ServersPage } from '../../src/renderer/pages/servers-page';
import { makeBridge, type Harness } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

const slowRestarts = { restartBaseMs: 30_000, restartMaxMs: 30_000, maxCrashes: 5, crashWindowMs: 60_000, startTimeoutMs: 10_000, stopGraceMs: 500 };
const throwing = "throw new Error('FOO_TOKEN is not set')";

describe('the server card of a server that crashed at start', () => {
  for (const [language, message, summary] of [
    ['en', 'The program stopped with an error: Error: FOO_TOKEN is not set', /^Last output \(\d+ lines\)$/],
    ['zh-CN', '程序因错误停止：Error: FOO_TOKEN is not set', /^最近输出（\d+ 行）$/],
  ] as const) {
    it(`shows the line that says why, and its whole output a click away (${language})`, async () => {
      harness = makeBridge({ servers: [{ name: 'node', transport: 'stdio', command: process.execPath, args: ['-e', throwing] }] }, slowRestarts);
      harness.bridge.start();
      const { store } = await renderWithBridge(harness, <ServersPage />, language);
      await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('restarting'), { timeout: 10_000 });
      expect(await screen.findByText(message)).toBeTruthy();
      const details = screen.getByText(summary).closest('details')!;
      expect(details.open).toBe(false);
      // The whole tail, not its last 12 lines (a Node crash is ~14 lines: the Error line was cut off).
      expect(details.querySelector('pre')!.textContent).toMatch(/^\[eval\]:1\n[\s\S]*\nError: FOO_TOKEN is not set\n[\s\S]*Node\.js v\d+/);
    });
  }
});
