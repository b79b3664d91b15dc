import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { zhCN } from '../../src/shared/i18n/zh-CN';

const README = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

/** The first lines under a heading: what a reader sees before scrolling. */
function firstScreen(heading: string, lines = 12): string {
  const all = README.split('\n');
  const at = all.findIndex((line) => line.startsWith(heading));
  expect(at, `README has no "${heading}"`).toBeGreaterThanOrEqual(0);
  return all.slice(at + 1, at + 1 + lines).join('\n');
}

describe('the README, for someone without Node.js in mainland China', () => {
  for (const heading of ['## The desktop app', '## Install the headless CLI']) {
    it(`says near the top of "${heading}" that Node.js and uv come with the app, and that the mirror setting helps`, () => {
      const top = firstScreen(heading);
      expect(top).toMatch(/Node\.js and uv|Node\.js or uv/);
      expect(top).toMatch(/mainland China/);
      expect(top).toMatch(/Download sources/);
    });
  }
});

describe('the README, for someone in Chinese with a computer without a screen', () => {
  const users = firstScreen('## 给使用者', 40);

  it('links from the Chinese first screen to a Chinese headless section: one run command with --ui, the rest in the page', () => {
    const link = /\[无界面运行\]\(#([^)]+)\)/.exec(users);
    expect(link, 'the Chinese first screen links to the headless path').not.toBeNull();
    const anchor = decodeURIComponent(link![1]!);
    const heading = README.split('\n').find((line) => /^#{2,3} /.test(line) && slug(line.replace(/^#+ /, '')) === anchor);
    expect(heading, `no heading for #${anchor}`).toBeDefined();
    const section = firstScreen(heading!, 20);
    expect(section).toMatch(/xiaozhi-tray run (--config \S+ )?--ui/);
    expect(section).not.toMatch(/--fetch-runtimes|JSON/);
    // Said in Chinese: open the printed address, add the endpoint and servers there, the page fetches uv / Node.js.
    expect(section).toMatch(/打开.*网址/);
    expect(section).toMatch(/接入点/);
    expect(section).toMatch(/下载 uv/);
    expect(section).toMatch(/中国大陆镜像/);
  });
});

/** Walkthrough 4 (issue 33): a Chinese non-developer opened the README on English `npm ci && npm start`. */
describe('the README, first for a person in Chinese, then for developers', () => {
  const lines = README.split('\n');
  it('opens in Chinese with what a user does; the developer commands come after, under a heading for developers', () => {
    const firstText = lines.slice(1).find((line) => line.trim() !== '')!;
    expect(firstText).toMatch(/[\u4e00-\u9fff]/);
    const users = lines.findIndex((line) => line.startsWith('## 给使用者'));
    const developers = lines.findIndex((line) => /^## .*(developers|开发者)/.test(line));
    const start = lines.findIndex((line) => line.startsWith('npm ci && npm start'));
    expect(users).toBeGreaterThan(0);
    expect(developers).toBeGreaterThan(users);
    // The two first commands are still there, as they are, for developers.
    expect(start).toBeGreaterThan(developers);
    expect(lines[start + 1]).toMatch(/^npm ci && npm test\b/);
  });

  it('names the button to add a server as the window labels it', () => {
    expect(firstScreen('## 给使用者', 40)).toContain(`点“+ ${zhCN['servers.add']}”`);
  });

  it('the Chinese headless section works from a clone too, not only from a Releases .tgz', () => {
    const section = firstScreen('### 无界面运行', 30);
    expect(section).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci && npm run build');
    expect(section).toContain('npx xiaozhi-tray run --ui');
  });
});

/** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
function slug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
