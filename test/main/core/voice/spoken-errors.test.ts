import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client, NO_DETAIL } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';

const ctx = withEndpointTeardown(afterEach);

async function speaker(language: 'en' | 'zh-CN'): Promise<Esp32Client> {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
    servers: [fixtureServer('notes', {}, { callTimeoutMs: 300 })],
    ui: { language },
  });
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  return Esp32Client.open(await ctx.xiaozhi.connection(0));
}

/** What the model hears, and the first sentence of it (what a speaker says first). */
function firstSentence(text: string): string {
  return (/^[^.。!！?？]*[.。!！?？]/.exec(text.replace(/^工具调用错误: /, ''))?.[0] ?? text).trim();
}

describe('errors arrive with their reason (xiaozhi-esp32-server reads result.error)', () => {
  it('every error the bridge or the server makes carries the same text in content[0].text and in error', async () => {
    const esp = await speaker('en');
    const said: Record<string, string> = {};
    // The argument check (echo needs text).
    said.arguments = await esp.say('echo', {});
    // The server's own isError.
    said.serverError = await esp.say('fail');
    // A JSON-RPC error from the server.
    said.thrown = await esp.say('throw');
    // Our timeout (300 ms on this server).
    said.timeout = await esp.say('slow', { ms: 5000 });
    // A tool switched off after the session listed it.
    await ctx.harness?.bridge.api.setToolEnabled({ server: 'notes', tool: 'big', enabled: false });
    said.off = await esp.say('big', { n: 5 });
    // A name the session was never served (xiaozhi.me's broker may send one; this client would refuse it itself).
    const unknown = await esp.session.request(900, 'tools/call', { name: 'no_such_tool', arguments: {} });
    said.unknown = Esp32Client.read(unknown);
    for (const [what, text] of Object.entries(said)) {
      expect(text, what).not.toContain(NO_DETAIL);
      expect(text, what).toMatch(/^工具调用错误: /);
      expect(firstSentence(text).length, `${what}: ${text}`).toBeLessThanOrEqual(90);
    }
    expect(said.arguments).toMatch(/echo/);
    expect(said.arguments).toMatch(/text/);
    expect(said.serverError).toBe('工具调用错误: it went wrong');
    expect(said.thrown).toMatch(/deliberate failure/);
    expect(said.timeout).toMatch(/slow.*0\.3 s|0\.3 seconds/);
    expect(said.off).toMatch(/big.*switched off/);
    expect(said.unknown).toMatch(/no_such_tool/);
    // Standard readers get the same text where they look.
    expect(unknown.result?.content?.[0]?.text).toBe((unknown.result as { error?: string }).error);
  }, 60_000);

  it('in the user’s language: what the bridge words itself is Chinese when the settings say so', async () => {
    const esp = await speaker('zh-CN');
    const timeout = await esp.say('slow', { ms: 5000 });
    expect(timeout).toMatch(/slow/);
    expect(timeout).toMatch(/超时/);
    const args = await esp.say('echo', {});
    expect(args).toMatch(/参数/);
  }, 60_000);
});
