// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { TrySentencePage } from '../../src/renderer/pages/try-sentence-page';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

describe('试一句话 says what it is for in its first line (issue 33, shot 46)', () => {
  it('in Chinese: trying your tools with a model you have, without xiaozhi — not a chat with xiaozhi', async () => {
    const harness = newBridge({});
    await renderWithBridge(harness, <TrySentencePage />, 'zh-CN');
    const lead = (await screen.findByRole('heading', { level: 1 })).parentElement!.querySelector('.field-hint')!.textContent!;
    expect(lead).toMatch(/^不用小智/);
    expect(lead).toMatch(/你自己的模型/);
    expect(lead).toMatch(/工具/);
  });

  it('in English too', async () => {
    const harness = newBridge({});
    await renderWithBridge(harness, <TrySentencePage />, 'en');
    const lead = (await screen.findByRole('heading', { level: 1 })).parentElement!.querySelector('.field-hint')!.textContent!;
    expect(lead).toMatch(/^Without xiaozhi/);
    expect(lead).toMatch(/a model of your own/);
  });
});
