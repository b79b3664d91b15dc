// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { CatalogueDialog } from '../../src/renderer/pages/catalogue-dialog';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

const QUIET = '暂时连不上在线目录：显示的是应用自带的服务列表。';
const WARNING = '无法读取在线目录，显示的是应用自带的列表。';
const dialog = <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />;

describe('the catalogue where the MCP registry cannot be reached', () => {
  it(
    'says once, quietly, that the built-in catalogue is shown; warns only when a refresh was asked for',
    async () => {
      // Port 9 (discard): nothing listens, as when the registry is blocked or the computer is offline.
      harness = makeBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/' });
      const first = await renderWithBridge(harness, dialog, 'zh-CN');
      // Before: the yellow warning, every time the catalogue opened.
      const note = await screen.findByText(QUIET, undefined, { timeout: scaled(10_000) });
      expect(note.closest('.notice')).toBeNull();
      expect(screen.queryByText(WARNING)).toBeNull();
      first.unmount();

      // Opened again: the registry is tried again (and fails), and nothing more is said.
      const again = await renderWithBridge(harness, dialog, 'zh-CN');
      await screen.findByRole('button', { name: '记忆（知识图谱）' }, { timeout: scaled(10_000) });
      const said = () => harness!.logBook.entries().filter((e) => e.message.includes('could not read the MCP registry'));
      await waitFor(() => expect(said()).toHaveLength(2), { timeout: scaled(10_000) });
      await waitFor(() => expect(screen.getByRole('button', { name: '更新在线目录' }).hasAttribute('disabled')).toBe(false), {
        timeout: scaled(10_000),
      });
      expect(screen.queryByText(QUIET)).toBeNull();
      expect(screen.queryByText(WARNING)).toBeNull();
      // The log said it once at warn, not at each opening.
      expect(said().map((e) => e.level)).toEqual(['warn', 'debug']);

      // Asked for: then a failure is a warning.
      fireEvent.click(screen.getByRole('button', { name: '更新在线目录' }));
      const warning = await screen.findByText(WARNING, undefined, { timeout: scaled(10_000) });
      // With why in plain words, and what to do: fetch refuses port 9 itself ("fetch failed: bad port"), no cause a
      // person could act on, so the plain general words; never the English error.
      const notice = warning.closest('.notice')!;
      expect(notice.textContent).toContain('读取在线目录时出了问题。请稍后再试；“日志”页面里有详细原因。');
      expect(notice.textContent).not.toMatch(/bad port|fetch failed/);
      again.unmount();
    },
    scaled(60_000),
  );

  it(
    'says it again in another window: the note once a window, not once a process',
    async () => {
      // Before: a module-wide flag; with test files sharing modules (and the web UI's tabs sharing one
      // bundle) a catalogue opened anywhere first silenced this note for every window after it.
      for (const round of [1, 2]) {
        harness = makeBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/' });
        const view = await renderWithBridge(harness, dialog, 'zh-CN');
        expect(await screen.findByText(QUIET, undefined, { timeout: scaled(10_000) }), `window ${round}`).toBeTruthy();
        view.unmount();
        await harness.bridge.stop();
        harness = undefined;
      }
    },
    scaled(60_000),
  );
});
