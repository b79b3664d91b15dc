// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';

import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { serversPageWithFakeNpx } from '../helpers/servers-page';
import { tempDirs } from '../helpers/temp-dirs';
import { scaled } from '../helpers/time-scale';

const tempDir = tempDirs('xt-retry-install-');
const openServers = serversPageWithFakeNpx();

/**
 * In npx's place: its first run fails as npm does when the registry's name does not resolve; the next
 * one keeps downloading (never done), as a retry on a mirror that answers slowly.
 */
function failsThenInstalls(): string {
  const dir = tempDir();
  const marker = path.join(dir, 'tried');
  const script = path.join(dir, 'npx-run.mjs');
  const lines = [
    'npm error code ENOTFOUND',
    'npm error network request to https://registry.npmjs.org/howtocook-mcp failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org',
  ];
  fs.writeFileSync(
    script,
    [
      "import fs from 'node:fs';",
      `const marker = ${JSON.stringify(marker)};`,
      `if (!fs.existsSync(marker)) { fs.writeFileSync(marker, ''); console.error(${JSON.stringify(lines.join('\n'))}); process.exit(1); }`,
      'setInterval(() => undefined, 1000);',
      '',
    ].join('\n'),
  );
  return script;
}

const howtocook = { name: 'howtocook', transport: 'stdio', command: 'npx', args: ['-y', 'howtocook-mcp'] };

/** Issue 33: while a retry installed again, the card showed 安装中 beside the last attempt's registry error, as if current. */
describe.skipIf(process.platform === 'win32')('a retry that installs after an attempt that could not download', () => {
  for (const [language, badge, earlier, again] of [
    ['zh-CN', '正在重试：安装中', /^上次尝试：/, /^正在重新下载这个服务/],
    ['en', 'Retrying: installing', /^Last attempt: /, /^Downloading this server again/],
  ] as const) {
    it(`tells one story: retrying, and the error marked as the last attempt's (${language})`, async () => {
      const { harness } = await openServers(language, [howtocook], '#/servers', { FAKE_NPX_SERVER: failsThenInstalls() });
      await waitFor(
        () => {
          const s = harness.bridge.state().servers[0]!;
          expect(s.restarts).toBe(1);
          expect(s.installing).toBeDefined();
        },
        { timeout: scaled(20_000) },
      );
      const card = document.getElementById('server-howtocook')!;
      expect(await within(card).findByText(badge, undefined, { timeout: scaled(10_000) })).toBeTruthy();
      // Not "for its first run": this is a second attempt.
      expect(within(card).getByText(again)).toBeTruthy();
      const error = [...card.querySelectorAll('.problem .warn-text, .problem .error-text')];
      expect(error.length).toBeGreaterThan(0);
      for (const line of error) expect(line.textContent).toMatch(earlier);
    });
  }
});
