// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmRemoveDialog } from '../../src/renderer/components/confirm-dialog';
import { NewToolSetDialog } from '../../src/renderer/pages/new-tool-set-dialog';
import { ServerEditor } from '../../src/renderer/pages/server-editor';
import { makeBridge, type Harness } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

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
    harness = makeBridge({});
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
