import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

async function bridgeWithFixture() {
  harness = makeBridge({ servers: [fixtureServer('fx')] });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  return harness.bridge;
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe("a call's answer: the result, and why the hub made it, as a value", () => {
  it("carries no problem for the tool's own answer, and the code for one the hub made", async () => {
    const bridge = await bridgeWithFixture();
    const view = bridge.toolHub.forSet(undefined);
    const ok = await view.call('echo', { text: 'hi' }, { caller: 't' });
    expect(text(ok.result)).toBe('fx: hi');
    expect(ok).not.toHaveProperty('problem');

    const unknown = await view.call('nope', {}, { caller: 't' });
    expect(unknown.result.isError).toBe(true);
    expect(text(unknown.result)).toMatch(/^There is no tool called "nope"/);
    expect(unknown.problem).toEqual({ code: 'call.unknownTool', params: { tool: 'nope' } });

    await bridge.api.setToolEnabled({ server: 'fx', tool: 'echo', enabled: false });
    const off = await view.call('echo', { text: 'hi' }, { caller: 't' });
    expect(off.problem).toEqual({ code: 'call.toolOff', params: { tool: 'echo' } });
  });

  it("router mode passes the hub's problem on, and adds none to its own answers", async () => {
    const bridge = await bridgeWithFixture();
    const router = bridge.endpointCatalogs.router();
    const found = await router.call('find_tools', { query: 'echo' }, { caller: 't' });
    expect(found).not.toHaveProperty('problem');
    const missing = await router.call('call_tool', { name: 'no_such_tool' }, { caller: 't' });
    expect(missing.result.isError).toBe(true);
    expect(missing).not.toHaveProperty('problem');
    await bridge.api.setToolEnabled({ server: 'fx', tool: 'echo', enabled: false });
    const off = await router.call('call_tool', { name: 'echo', arguments: { text: 'hi' } }, { caller: 't' });
    expect(off.problem).toEqual({ code: 'call.toolOff', params: { tool: 'echo' } });
  });

  it("reaches the window's Try it as its error, worded there", async () => {
    const bridge = await bridgeWithFixture();
    const answer = await bridge.api.callTool({ name: 'nope' });
    expect(answer).toMatchObject({ isError: true, error: { code: 'call.unknownTool', params: { tool: 'nope' } } });
  });
});

describe("a failed call's words, as its caller gets them", () => {
  it('carry no secret the server echoed: a configured key, or a key in a URL (a bad AMap key reached xiaozhi)', async () => {
    const failText =
      'Error: request to https://restapi.amap.com/v3/weather/weatherInfo?city=110000&key=abc123configured&extensions=base failed, reason: getaddrinfo ENOTFOUND restapi.amap.com (AMAP_MAPS_API_KEY=abc123configured, token zz-other-secret-991)';
    harness = makeBridge({
      servers: [
        fixtureServer('fx', { FIXTURE_FAIL_TEXT: failText, AMAP_MAPS_API_KEY: 'abc123configured', OTHER_TOKEN: 'zz-other-secret-991' }),
      ],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const view = harness.bridge.toolHub.forSet(undefined);
    for (const context of [{ caller: 'xiaozhi' }, { caller: 'cursor', shape: false }]) {
      const { result } = await view.call('fail', {}, context);
      expect(result.isError).toBe(true);
      const said = JSON.stringify(result);
      expect(said).not.toContain('abc123configured');
      expect(said).not.toContain('zz-other-secret-991');
      // What is not secret stays, for the model to say what went wrong.
      expect(text(result)).toContain('ENOTFOUND restapi.amap.com');
    }
  });
});

describe("a failed call's words, as xiaozhi's model hears them", () => {
  it('start with the cause in the voice language when the server names one; a local client gets the words as they came', async () => {
    const failText = 'Tavily API error: getaddrinfo ENOTFOUND api.tavily.com\nDocumentation: https://docs.tavily.com/';
    harness = makeBridge({ servers: [fixtureServer('fx', { FIXTURE_FAIL_TEXT: failText })], ui: { language: 'zh-CN' } });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const view = harness.bridge.toolHub.forSet(undefined);
    const spoken = await view.call('fail', {}, { caller: 'xiaozhi', session: 's1' });
    expect(text(spoken.result)).toBe(`服务连不上它要用的网站：请检查这台电脑的网络。\n服务原话：${failText}`);
    const local = await view.call('fail', {}, { caller: 'cursor', shape: false });
    expect(text(local.result)).toBe(failText);
    // A failure with no cause it names is passed on as the server wrote it.
    const thrown = await view.call('throw', {}, { caller: 'xiaozhi', session: 's1' });
    expect(text(thrown.result)).not.toMatch(/^服务连不上/);
  });
});

describe("a file server's system error, as xiaozhi's model hears it (walkthrough 4: raw English read out to a Chinese listener)", () => {
  it('a short lead in the voice language, then the server words marked as its own; a success is passed on untouched', async () => {
    const failText = "ENOENT: no such file or directory, open '/tmp/home/不存在.txt'";
    harness = makeBridge({ servers: [fixtureServer('fx', { FIXTURE_FAIL_TEXT: failText })], ui: { language: 'zh-CN' } });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const view = harness.bridge.toolHub.forSet(undefined);
    const spoken = await view.call('fail', {}, { caller: 'xiaozhi', session: 's1' });
    expect(text(spoken.result)).toBe(`文件或文件夹不存在。\n服务原话：${failText}`);
    const echoed = await view.call('echo', { text: failText }, { caller: 'xiaozhi', session: 's1' });
    expect(text(echoed.result)).not.toContain('服务原话');
  });
});

describe("a failed call's row in History, when the model heard a cause first", () => {
  it('keeps the server’s own words (the window says the cause above them itself)', async () => {
    const failText = 'Tavily API error: getaddrinfo ENOTFOUND api.tavily.com';
    harness = makeBridge({ servers: [fixtureServer('fx', { FIXTURE_FAIL_TEXT: failText })], ui: { language: 'zh-CN' } });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await harness.bridge.toolHub.forSet(undefined).call('fail', {}, { caller: 'xiaozhi', session: 's1' });
    const rows = await harness.bridge.api.getHistory();
    expect(rows.find((row) => row.tool === 'fail')?.result).toBe(failText);
  });
});
