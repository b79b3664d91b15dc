import { describe, expect, it } from 'vitest';

import {
  BUILTIN_SERVER,
  type BuiltinCallContext,
  type BuiltinTool,
  BuiltinTools,
} from '../../../../../src/main/core/hub/builtin/builtin-tools';
import { textResult } from '../../../../../src/main/core/hub/result-shaping';
import { type HubSettings, ToolHub } from '../../../../../src/main/core/hub/tool-hub';
import { CallHistory } from '../../../../../src/main/core/logs/call-history';
import { LogBook } from '../../../../../src/main/core/logs/log-book';
import { SettingsSchema } from '../../../../../src/shared/settings';

/** A built-in that says back who called it, on which connection. */
function whoAmI(seen: BuiltinCallContext[], listed = () => true): BuiltinTool {
  return {
    tool: { name: 'who_am_i', description: 'Says who called', inputSchema: { type: 'object', properties: { loud: { type: 'boolean' } } } },
    listed,
    run: (args, context) => {
      seen.push(context);
      return textResult(`${context.caller}/${context.session ?? '-'}${args.loud === true ? '!' : ''}`);
    },
  };
}

function hubWith(builtins: BuiltinTools, toolSets: unknown[] = []) {
  const settings = SettingsSchema.parse({ toolSets });
  const hubSettings: HubSettings = { naming: settings.naming, toolSets: settings.toolSets, maxMessageBytes: 8192 };
  const history = new CallHistory(100);
  const hub = new ToolHub(() => [builtins], hubSettings, history, new LogBook().logger('test'));
  hub.rebuild();
  return { hub, history };
}

describe('built-in tools: a tool source of the hub', () => {
  it('are in the catalog under the reserved server name, served, called with the caller and session, and recorded', async () => {
    const seen: BuiltinCallContext[] = [];
    const { hub, history } = hubWith(new BuiltinTools([whoAmI(seen)]));
    expect(hub.catalog()).toEqual([expect.objectContaining({ name: 'who_am_i', server: BUILTIN_SERVER, enabled: true })]);
    expect(hub.page(undefined, '1').tools.map((t) => t.name)).toEqual(['who_am_i']);
    const answer = await hub.call('who_am_i', { loud: true }, { caller: 'kitchen', session: 's1' });
    expect(answer.result.content).toEqual([{ type: 'text', text: 'kitchen/s1!' }]);
    expect(seen[0]).toMatchObject({ caller: 'kitchen', session: 's1' });
    expect(history.list()[0]).toMatchObject({ tool: 'who_am_i', server: BUILTIN_SERVER, caller: 'kitchen', outcome: 'ok' });
    // Arguments are checked against the built-in's schema like a server's.
    const bad = await hub.call('who_am_i', { loud: 'yes' }, { caller: 'kitchen' });
    expect(bad.result.isError).toBe(true);
    expect(bad.problem?.code).toBe('call.badArguments');
  });

  it('a call finds its source by name: the sources are listed for the catalog, not once per call', async () => {
    const builtins = new BuiltinTools([whoAmI([])]);
    const settings = SettingsSchema.parse({});
    let listed = 0;
    const hub = new ToolHub(
      { all: () => (listed++, [builtins]), named: (name) => (name === builtins.name ? builtins : undefined) },
      { naming: settings.naming, toolSets: settings.toolSets, maxMessageBytes: 8192 },
      new CallHistory(100),
      new LogBook().logger('test'),
    );
    hub.rebuild();
    const afterRebuild = listed;
    for (let i = 0; i < 3; i++) expect((await hub.call('who_am_i', {}, { caller: 'kitchen' })).result.isError).toBeFalsy();
    expect(listed).toBe(afterRebuild);
  });

  it('are in every tool set, even one that names its servers, and can be switched off there', async () => {
    const { hub } = hubWith(new BuiltinTools([whoAmI([])]), [
      { name: 'kitchen', servers: ['weather'] },
      { name: 'quiet', servers: 'all', tools: { [BUILTIN_SERVER]: { who_am_i: { enabled: false } } } },
    ]);
    expect(
      hub
        .forSet('kitchen')
        .catalog()
        .map((t) => t.name),
    ).toEqual(['who_am_i']);
    expect(hub.forSet('quiet').catalog()).toEqual([expect.objectContaining({ name: 'who_am_i', enabled: false })]);
    expect(hub.forSet('quiet').page(undefined, '1').tools).toEqual([]);
    const off = await hub.forSet('quiet').call('who_am_i', {}, { caller: 'x' });
    expect(off.problem?.code).toBe('call.toolOff');
  });

  it('a built-in with nothing to do is not listed until it has', () => {
    let wanted = false;
    const { hub } = hubWith(new BuiltinTools([whoAmI([], () => wanted)]));
    expect(hub.catalog()).toEqual([]);
    wanted = true;
    hub.rebuild();
    expect(hub.catalog().map((t) => t.name)).toEqual(['who_am_i']);
  });

  it('no configured server may take the reserved name', () => {
    const parsed = SettingsSchema.safeParse({ servers: [{ name: BUILTIN_SERVER, transport: 'stdio', command: 'node' }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain("Xiaozhi Tray's own tools");
  });
});
