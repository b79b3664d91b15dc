// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';

import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { CatalogueDialog } from '../../src/renderer/pages/catalogue-dialog';
import { installCommand } from '../../src/shared/runtime-need';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { tempDirs } from '../helpers/temp-dirs';

const tempDir = tempDirs('xt-catalogue-runtime-');
let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

/** The meta line of a catalogue entry, by its title. */
async function metaOf(title: string): Promise<string> {
  const pick = await screen.findByRole('button', { name: title });
  return pick.closest('li')!.querySelector('.catalogue-meta')!.textContent!;
}

async function open(env: NodeJS.ProcessEnv, runtimesDir: string | undefined, language: 'en' | 'zh-CN' = 'en') {
  harness = makeBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/', env, ...(runtimesDir ? { runtimesDir } : {}) });
  await renderWithBridge(
    harness,
    <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
    language,
  );
}

describe.skipIf(process.platform === 'win32')('the catalogue says what each entry needs to run here', () => {
  it('headless, without the runtime: install it first, with the command for this OS', async () => {
    await open({ ...process.env, PATH: tempDir() }, undefined);
    expect(await metaOf('Memory (knowledge graph)')).toContain(
      `Runs on this computerNode.js is not installed here. Run headless, the app fetches Node.js itself only when started with xiaozhi-tray run --fetch-runtimes; or install it yourself: ${installCommand('node', process.platform)}`,
    );
    expect(await metaOf('Time and time zones')).toContain(
      `uv is not installed here. Run headless, the app fetches uv itself only when started with xiaozhi-tray run --fetch-runtimes; or install it yourself: ${installCommand('uv', process.platform)}`,
    );
    expect(await metaOf('AMap (Gaode) Maps, hosted')).not.toContain('install');
  });

  it('headless, without the runtime, the add step says the server will wait for it and how to go on (zh-CN)', async () => {
    await open({ ...process.env, PATH: tempDir() }, undefined, 'zh-CN');
    fireEvent.click(await screen.findByRole('button', { name: '添加 时间与时区' }));
    const step = screen.getByRole('dialog');
    expect(step.textContent).toContain('现在添加的话，它会等 uv 装好：装好后在它的卡片上点“重试”。');
    expect(within(step).getByRole('button', { name: '添加' })).toBeTruthy();
  });

  it('in the desktop app (a runtime store): the app fetches it when the server is added', async () => {
    await open({ ...process.env, PATH: tempDir() }, tempDir(), 'zh-CN');
    expect(await metaOf('记忆（知识图谱）')).toContain('未安装 Node.js：添加该服务后应用会自动下载');
  });

  it('with the runtime on PATH: says only where it runs (what it runs with needs no word)', async () => {
    const bin = tempDir();
    fs.writeFileSync(path.join(bin, 'npx'), '#!/bin/sh\n', { mode: 0o755 });
    await open({ ...process.env, PATH: bin }, tempDir());
    const meta = await metaOf('Memory (knowledge graph)');
    expect(meta).toContain('Runs on this computer');
    expect(meta).not.toContain('Node.js');
    expect(await metaOf('Time and time zones')).toContain('uv is not installed: the app fetches it when you add this server');
  });
});
