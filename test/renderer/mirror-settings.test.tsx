// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { MirrorSettings } from '../../src/renderer/pages/mirror-settings';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

const choices = () =>
  screen.getAllByRole('radio').map((radio) => [radio.closest('label')!.textContent, (radio as HTMLInputElement).checked]);

describe('Settings → Download sources', () => {
  it('until the user chooses, uses the mainland China mirrors in a Chinese window, saying so and that it can be changed', async () => {
    harness = makeBridge({ ui: { language: 'zh-CN' } });
    await renderWithBridge(harness, <MirrorSettings />, 'zh-CN');
    expect(choices().map(([, checked]) => checked)).toEqual([true, false, false]);
    expect(screen.getByText('正在使用中国大陆镜像：这台电脑用中文或中国的时区，所以自动选了它。可以在下面改选。')).toBeTruthy();
    expect(harness.store.load().mirrors).toEqual({});
    fireEvent.click(screen.getAllByRole('radio')[1]!);
    await waitFor(() => expect(harness!.store.load().mirrors).toEqual({ preset: 'default' }));
    await waitFor(() => expect(choices().map(([, checked]) => checked)).toEqual([false, true, false]));
    expect(screen.queryByText(/自动选了它/)).toBeNull();
  });

  it('in English in a China time zone, the mirrors too, said in English', async () => {
    harness = makeBridge({ ui: { language: 'system' } }, undefined, {
      env: { ...process.env, LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '', TZ: 'Asia/Shanghai' },
    });
    await renderWithBridge(harness, <MirrorSettings />, 'en');
    expect(choices().map(([, checked]) => checked)).toEqual([false, true, false]);
    expect(
      screen.getByText(
        'In use: the mainland China mirrors, chosen for you because this computer uses Chinese or a China time zone. You can choose another below.',
      ),
    ).toBeTruthy();
  });

  it('offers the mainland China mirrors first in a Chinese window, when the user chose the official sources', async () => {
    harness = makeBridge({ mirrors: { preset: 'default' } });
    await renderWithBridge(harness, <MirrorSettings />, 'zh-CN');
    // What it is for, in a person's words, first; the sites' technical names folded under 技术细节 (walkthrough 4).
    expect(screen.getByText('有些服务第一次使用时要从网上下载；这里选从哪里下载。更改在服务下次启动时生效。')).toBeTruthy();
    expect(choices()).toEqual([
      ['中国大陆镜像（国内的网站）', false],
      ['官方源（国外的网站）', true],
      ['自定义下载源', false],
    ]);
    const technical = screen.getByText('技术细节').closest('details')!;
    expect(technical.open).toBe(false);
    expect(technical.textContent).toContain('npmmirror');
    expect(technical.textContent).toContain('用 npx 或 uvx 启动的服务');
    expect(screen.getByText('在中国大陆？中国大陆镜像通常比官方源快得多。')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('radio')[0]!);
    await waitFor(() => expect(harness!.store.load().mirrors).toEqual({ preset: 'china' }));
  });

  it('lists the official sources first in English, and saves custom sources, refusing plain http', async () => {
    harness = makeBridge({});
    await renderWithBridge(harness, <MirrorSettings />, 'en');
    expect(choices().map(([label]) => label)).toEqual([
      'Official sources (the projects’ own sites)',
      'Mainland China mirrors (sites in China)',
      'My own sources',
    ]);
    fireEvent.click(screen.getByLabelText('My own sources'));
    const npm = await screen.findByLabelText('npm registry');
    fireEvent.change(npm, { target: { value: 'http://npm.example.com/' } });
    expect(screen.getByRole('alert').textContent).toBe('Must be an https:// URL.');
    expect((screen.getByText('Save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(npm, { target: { value: 'https://npm.example.com/' } });
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(harness!.store.load().mirrors).toEqual({ preset: 'custom', npmRegistry: 'https://npm.example.com/' }));
  });

  it('takes a PyPI index for uv among the custom sources', async () => {
    harness = makeBridge({ mirrors: { preset: 'custom' } });
    await renderWithBridge(harness, <MirrorSettings />, 'zh-CN');
    const field = await screen.findByLabelText('uv 的 PyPI 索引（下载 uv 的 wheel，优先于 uv 下载地址）');
    fireEvent.change(field, { target: { value: 'https://mirrors.aliyun.com/pypi/simple/' } });
    fireEvent.click(screen.getByText('保存'));
    await waitFor(() =>
      expect(harness!.store.load().mirrors).toEqual({ preset: 'custom', uvIndex: 'https://mirrors.aliyun.com/pypi/simple/' }),
    );
  });
});
