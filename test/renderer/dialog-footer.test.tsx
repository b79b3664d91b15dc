// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ConfirmRemoveDialog } from '../../src/renderer/components/confirm-dialog';
import { NewToolSetDialog } from '../../src/renderer/pages/new-tool-set-dialog';
import { ServerEditor } from '../../src/renderer/pages/server-editor';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/** The footer's buttons, left to right. */
const footerButtons = () => {
  const footer = document.querySelector('.dialog-footer') as HTMLElement;
  return within(footer)
    .getAllByRole('button')
    .map((b) => ({ name: b.textContent, primary: /btn-(primary|danger)/.test(b.className) }));
};

describe('every dialog ends its footer the same way', () => {
  it.each([
    [
      'a confirmation',
      (onClose: () => void) => <ConfirmRemoveDialog title="Remove?" body="Sure?" onCancel={onClose} onConfirm={() => undefined} />,
      'Remove',
    ],
    ['a new tool set', (onClose: () => void) => <NewToolSetDialog onClose={onClose} onCreated={() => undefined} />, 'Create'],
    ['the server form', (onClose: () => void) => <ServerEditor existingNames={[]} onClose={onClose} />, 'Save'],
  ])('%s: Cancel, then the main action on the right; Esc cancels', async (_name, dialog, primary) => {
    const harness = newBridge({});
    const onClose = vi.fn();
    await renderWithBridge(harness, dialog(onClose));
    const buttons = footerButtons();
    expect(buttons.slice(-2)).toEqual([
      { name: 'Cancel', primary: false },
      { name: primary, primary: true },
    ]);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
