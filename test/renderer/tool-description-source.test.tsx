// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ToolSetsPage } from '../../src/renderer/pages/tool-sets-page';
import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { fixtureServer } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/** The fixture's tools: most described in English, weather.get in Chinese (test/fixtures/fixture-server.mjs). */
async function toolsPage(language: 'zh-CN' | 'en') {
  const harness = newBridge({ servers: [fixtureServer('alpha')] });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  // The user's own words for one tool, in English: theirs, not the server's.
  await harness.bridge.api.setToolDescription({ server: 'alpha', tool: 'slow', description: 'Waits a while' });
  await renderWithBridge(harness, <ToolsPage />, language);
  const row = async (description: string) => (await screen.findByText(description)).closest('li')!;
  return { harness, row };
}

/** Issue 33: the Tools page showed servers' English descriptions in the Chinese window with nothing saying whose words they were. */
describe("a tool's description as its server wrote it", () => {
  it('is marked as the server’s own words in the Chinese window when it is not Chinese, and given to xiaozhi unchanged', async () => {
    const { harness, row } = await toolsPage('zh-CN');
    const echo = await row('Echoes its text (alpha)');
    const mark = echo.querySelector('.own-words-tag');
    expect(mark?.textContent).toBe('服务自带的说明');
    expect(mark?.getAttribute('title')).toMatch(/服务程序自己写的/);
    // Chinese already, or the user's own words: nothing to say.
    expect((await row('查询天气 (a name with a dot)')).querySelector('.own-words-tag')).toBeNull();
    expect((await row('Waits a while')).querySelector('.own-words-tag')).toBeNull();
    // What xiaozhi reads is the server's text as it was: the mark is the window's alone.
    const name = echo.querySelector('.tool-name')!.textContent;
    const served = harness.bridge.toolHub.page(undefined, '1').tools.find((tool) => tool.name === name);
    expect(served?.description).toBe('Echoes its text (alpha)');
  });

  it('is not marked in the English window', async () => {
    const { row } = await toolsPage('en');
    await row('Echoes its text (alpha)');
    expect(document.querySelector('.own-words-tag')).toBeNull();
  });

  it('is marked the same way on the tool sets page (walkthrough 5 met it there unmarked)', async () => {
    const harness = newBridge({ servers: [fixtureServer('alpha')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await renderWithBridge(harness, <ToolSetsPage />, 'zh-CN');
    const echo = (await screen.findByText('Echoes its text (alpha)')).closest('li')!;
    expect(echo.querySelector('.own-words-tag')?.textContent).toBe('服务自带的说明');
  });
});
