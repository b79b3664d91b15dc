// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { ToolSetsPage } from '../../src/renderer/pages/tool-sets-page';
import { fixtureServer, startServingHome, withEndpointTeardown } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

const ctx = withEndpointTeardown(afterEach);
afterEach(cleanup);

/**
 * Found by a full run under load (e2e tool-sets-ui): right after choosing another set, its panel showed the
 * set chosen before's tools under the new set's name until the new list came, long enough to click one.
 */
describe('choosing another tool set', () => {
  it("never shows the set chosen before's tools under the new set's name", async () => {
    const harness = await startServingHome(ctx, { servers: [fixtureServer('fx')] });
    await harness.bridge.whenServersSettled();
    await harness.bridge.api.addToolSet({ name: 'Empty' });
    await renderWithBridge(harness, <ToolSetsPage />, 'en');
    await screen.findByRole('switch', { name: 'Serve echo' }, { timeout: 10_000 });
    const other = screen.getAllByRole('button').find((b) => b.textContent?.startsWith('Empty'));
    expect(other).toBeDefined();
    act(() => void fireEvent.click(other!));
    // Before its own list has come, the new set's panel shows none of the previous set's switches.
    expect(screen.getByRole('region', { name: 'Empty' })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Serve echo' })).toBeNull();
  });
});
