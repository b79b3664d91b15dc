import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

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

/** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
function slug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
