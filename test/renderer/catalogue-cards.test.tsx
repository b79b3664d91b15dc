// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { CatalogueDialog } from '../../src/renderer/pages/catalogue-dialog';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/** Issue 33: only the title text added a server; a card click and the space around it did nothing. */
describe('a catalogue card', () => {
  const open = async (language: 'en' | 'zh-CN') => {
    const harness = newBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/' });
    await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
      language,
    );
  };

  it('has a clear Add button that asks for what the entry needs', async () => {
    await open('zh-CN');
    const add = await screen.findByRole('button', { name: '添加 时间与时区' });
    expect(add.textContent).toBe('添加');
    fireEvent.click(add);
    expect(within(screen.getByRole('dialog')).getByRole('heading').textContent).toBe('配置“时间与时区”');
  });

  it('is a target as a whole: a click on its description picks it, its homepage link does not', async () => {
    await open('en');
    const card = (await screen.findByRole('button', { name: 'Add ModelScope-hosted server' })).closest('li') as HTMLElement;
    fireEvent.click(within(card).getByRole('link'));
    expect(screen.queryByRole('heading', { name: 'Set up ModelScope-hosted server' })).toBeNull();
    fireEvent.click(card.querySelector('.catalogue-meta') as HTMLElement);
    expect(within(screen.getByRole('dialog')).getByRole('heading').textContent).toBe('Set up ModelScope-hosted server');
  });
});
