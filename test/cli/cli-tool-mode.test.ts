import { afterEach, describe, expect, it } from 'vitest';

import { catalogServer } from '../helpers/catalogs';
import { waitFor } from '../helpers/wait';
import { CliHarness } from './cli-harness';

/** `--tool-mode router` switches every endpoint of a headless run (and the `tools` listing) to router mode. */
const h = new CliHarness();
afterEach(() => h.cleanup());

const config = (endpoints: unknown[]) =>
  h.writeConfig({ endpoints, servers: [catalogServer('weather'), catalogServer('memory')] }, 'xiaozhi-tray.json');

describe('--tool-mode', () => {
  it('tools --tool-mode router prints what xiaozhi gets in router mode', async () => {
    const run = h.spawn(['tools', '--config', config([]), '--tool-mode', 'router']);
    expect(await run.exit).toBe(0);
    const out = run.stdout();
    expect(out).toMatch(/^ {2}call_tool /m);
    expect(out).toMatch(/^ {2}find_tools /m);
    expect(out).not.toMatch(/^ {2}get_daily_forecast /m);
    expect(out).toMatch(/^ {2}task_status /m);
    expect(out).toMatch(/^4 tools, \d+ bytes in 1 page /m);
    expect(out).toContain('router mode: find_tools searches 22 tools');
  });

  it('tools says when the listing is past the budget xiaozhi handles, and how to see router mode', async () => {
    const over = h.spawn(['tools', '--config', h.writeConfig({ servers: [catalogServer('home-assistant')] }, 'home.json')]);
    expect(await over.exit).toBe(0);
    expect(over.stdout()).toMatch(
      /^past the budget of 25 tools \/ 8192 bytes \(limits\.budgetTools, limits\.budgetBytes\): xiaozhi may drop or fail the list\. Switch tools off, or see router mode with --tool-mode router$/m,
    );
    const file = h.writeConfig({ servers: [catalogServer('weather')], limits: { budgetBytes: 1_000_000 } }, 'roomy.json');
    const within = h.spawn(['tools', '--config', file]);
    expect(await within.exit).toBe(0);
    expect(within.stdout()).not.toContain('budget');
  });

  it('run --tool-mode router serves every endpoint find_tools and call_tool, whatever the file says', async () => {
    const xiaozhi = await h.fakeXiaozhi();
    const run = h.spawn([
      'run',
      '--config',
      config([{ id: 'a', name: 'a', url: xiaozhi.url(), toolMode: 'all' }]),
      '--tool-mode',
      'router',
    ]);
    const session = await xiaozhi.connection(0, 20_000);
    await session.initialize();
    const { tools } = await session.listAllTools();
    // With the bridge's own task tools beside them.
    expect(tools.map((t) => t.name)).toEqual(['call_tool', 'cancel_task', 'find_tools', 'task_status']);
    let id = 1;
    let text = '';
    // The servers may still be starting: ask until the memory server's tool is there.
    await waitFor(
      async () => {
        const called = await session.request(id++, 'tools/call', {
          name: 'call_tool',
          arguments: { name: 'search_nodes', arguments: { query: 'wife' } },
        });
        text = called.result?.content?.[0]?.text ?? '';
        return !text.startsWith('There is no tool');
      },
      20_000,
      'the memory server',
    );
    expect(text).toBe('memory/search_nodes: {"query":"wife"}');
    expect(run.stderr()).toBe('');
  });

  it('tools --endpoint lists what that endpoint is served: its tool set and mode', async () => {
    const file = h.writeConfig(
      {
        endpoints: [
          { id: 'k', name: 'kitchen', url: 'ws://127.0.0.1:9/mcp/?token=t', toolSet: 'cooking' },
          { id: 's', name: 'study', url: 'ws://127.0.0.1:9/mcp/?token=u', toolMode: 'router' },
        ],
        toolSets: [{ id: 'cooking', name: 'Cooking', servers: ['weather'] }],
        servers: [catalogServer('weather'), catalogServer('memory')],
      },
      'two.json',
    );
    const kitchen = h.spawn(['tools', '--config', file, '--endpoint', 'kitchen']);
    expect(await kitchen.exit).toBe(0);
    expect(kitchen.stdout()).toMatch(/^endpoint kitchen: tool set Cooking, every tool that is on$/m);
    expect(kitchen.stdout()).toMatch(/^ {2}get_daily_forecast /m);
    expect(kitchen.stdout()).not.toMatch(/^ {2}search_nodes /m);
    const study = h.spawn(['tools', '--config', file, '--endpoint', 's']);
    expect(await study.exit).toBe(0);
    expect(study.stdout()).toMatch(/^ {2}find_tools /m);
    const unknown = h.spawn(['tools', '--config', file, '--endpoint', 'garage']);
    expect(await unknown.exit).toBe(2);
    expect(unknown.stderr()).toContain('--endpoint "garage" names no endpoint of the config (its endpoints: kitchen, study)');
  });

  it('refuses an unknown mode', async () => {
    const run = h.spawn(['run', '--config', config([]), '--tool-mode', 'smart']);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toMatch(/--tool-mode.*"smart"/);
  });
});
