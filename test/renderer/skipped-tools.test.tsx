// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ServersPage } from '../../src/renderer/pages/servers-page';
import { TryToolDialog } from '../../src/renderer/pages/try-tool-dialog';
import { fixtureServer, type Harness } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

async function startWith(env: Record<string, string>): Promise<Harness> {
  const harness = newBridge({ servers: [fixtureServer('fx', env)] });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  return harness;
}

describe('tools a server listed but that are not served', () => {
  it('are named on its card with why, in English', async () => {
    await renderWithBridge(await startWith({ FIXTURE_DUPLICATES: '3', FIXTURE_BAD_TOOLS: '1' }), <ServersPage />);
    const summary = await screen.findByText('6 tools left out');
    const card = summary.closest('details') as HTMLElement;
    const items = [...card.querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual([
      'twin: listed 3 times under the same name; only the first is served',
      'no_type: its argument schema does not say "type": "object", which MCP requires',
      'tool #17: it has no name',
      'tool #18: its name is not text',
      'string_schema: its argument schema (inputSchema) is missing or not an object',
      'required_not_list: its definition is not valid MCP (at inputSchema.required)',
    ]);
    expect(card.textContent).toContain('Its other tools work.');
  });

  it('are named on its card with why, in Chinese', async () => {
    await renderWithBridge(await startWith({ FIXTURE_DUPLICATES: '2' }), <ServersPage />, 'zh-CN');
    const summary = await screen.findByText('1 个工具未提供');
    expect(summary.closest('details')?.querySelector('li')?.textContent).toBe('twin: 同一名称列出了 2 次，只提供第一个');
  });

  it('leave a card without them alone', async () => {
    await renderWithBridge(await startWith({}), <ServersPage />);
    await screen.findByText('fx');
    expect(document.querySelector('.skipped-tools')).toBeNull();
  });
});

describe('the tool view of an argument defined by a $ref', () => {
  it('offers the choices of its definition instead of a JSON box', async () => {
    const h = await startWith({ FIXTURE_REF_TOOLS: '1' });
    const tool = (await h.bridge.api.getCatalog()).find((t) => t.name === 'order_pizza')!;
    await renderWithBridge(h, <TryToolDialog tool={tool} onClose={() => undefined} />);
    const size = (await waitFor(() => screen.getByLabelText('size *'))) as HTMLSelectElement;
    expect(size.tagName).toBe('SELECT');
    expect([...size.options].map((o) => o.textContent)).toContain('large');
  });
});
