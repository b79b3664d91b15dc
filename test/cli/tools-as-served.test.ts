import { afterEach, describe, expect, it } from 'vitest';

import { catalogServer } from '../helpers/catalogs';
import { scaled } from '../helpers/time-scale';
import { CliHarness } from './cli-harness';

/**
 * `tools` shows exactly what an endpoint is served: the same tools, descriptions and schemas, page
 * by page, as a `run` of the same config sends xiaozhi, the bridge's own tools included.
 */
const h = new CliHarness();
afterEach(() => h.cleanup());

type Listed = { name: string; description?: string; inputSchema?: unknown };

/** The pages `tools --json` prints, as xiaozhi would get them (without the CLI's own server and originalName). */
async function toolsJson(args: string[]): Promise<Listed[][]> {
  const { code, out, err } = await h.finished(['tools', ...args, '--json']);
  expect(code, err).toBe(0);
  const printed = JSON.parse(out) as { pages: { tools: (Listed & { server?: string; originalName?: string })[] }[] };
  return printed.pages.map((page) => page.tools.map(({ server: _server, originalName: _original, ...tool }) => tool));
}

describe('tools lists what each endpoint of the config is served', () => {
  it('the same as a run serves the default endpoint and a router-mode one, task and confirm tools included', async () => {
    const home = await h.fakeXiaozhi();
    const study = await h.fakeXiaozhi();
    const file = h.writeConfig({
      ui: { language: 'zh-CN' },
      endpoints: [
        // Every tool (the automatic mode, an endpoint's default, would search these 23 past the budget).
        { id: 'h', name: 'home', url: home.url(), toolMode: 'all' },
        { id: 's', name: 'study', url: study.url(), toolMode: 'router', pinned: ['get_daily_forecast'] },
      ],
      // A tool that asks first: confirm_action is served too.
      servers: [catalogServer('weather'), catalogServer('memory', { extra: { toolPolicies: { delete_entities: 'ask' } } })],
    });
    const listedAll = await toolsJson(['--config', file]);
    const listedStudy = await toolsJson(['--config', file, '--endpoint', 'study']);

    const run = h.spawn(['run', '--config', file]);
    const served = async (xiaozhi: typeof home): Promise<Listed[][]> => {
      const session = await xiaozhi.connection(0, scaled(20_000));
      await session.initialize();
      return (await session.listAllTools()).pages.map((page) => (page.result?.tools ?? []) as Listed[]);
    };
    const servedHome = await served(home);
    const servedStudy = await served(study);
    run.child.kill('SIGINT');
    await run.exit;

    const names = (pages: Listed[][]) => pages.flat().map((t) => t.name);
    expect(names(servedHome)).toEqual(expect.arrayContaining(['cancel_task', 'confirm_action', 'task_status', 'get_daily_forecast']));
    expect(names(servedHome)).toHaveLength(20 + 3);
    expect(listedAll).toEqual(servedHome);
    expect(names(servedStudy)).toEqual(['call_tool', 'cancel_task', 'confirm_action', 'find_tools', 'get_daily_forecast', 'task_status']);
    expect(listedStudy).toEqual(servedStudy);
  }, 90_000);
});
