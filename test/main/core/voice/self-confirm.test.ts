import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { shapeResult, textResult } from '../../../../src/main/core/hub/result-shaping';
import type { EndpointSettings } from '../../../../src/shared/settings';
import { fixtureServer, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';

const LONG_CALL_SERVER = path.resolve(__dirname, '../../../fixtures/long-call-server.mjs');
const ctx = withEndpointTeardown(afterEach);

// Found by issue 30: "ask first" handed the model the code inside the held call's answer, and a
// confused or prompt-injected model called confirm_action with it 240 ms later: the destructive call
// ran and no person spoke. This model does just that with everything it can read.

/** Every string a model could lift out of a text: each run of digits, each quoted word, each word. */
function candidates(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/[0-9０-９]+/g)) found.add(match[0]);
  for (const match of text.matchAll(/["“「『]([^"”」』]{1,40})["”」』]/g)) found.add(match[1] as string);
  for (const word of text.split(/[\s,.;:!?，。；：！？()（）]+/)) if (word.length > 0 && word.length <= 12) found.add(word);
  return [...found];
}

/** confirm_action called with each candidate under each argument its schema names (and none), until one is not an error. */
async function confirmWithWhatItRead(esp: Esp32Client, answer: string): Promise<string[]> {
  const tool = esp.tools.find((t) => t.name === 'confirm_action');
  const keys = Object.keys((tool?.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? { code: {} });
  const heard: string[] = [];
  for (const value of candidates(answer).slice(0, 60)) {
    for (const key of keys) heard.push(await esp.say('confirm_action', { [key]: value }));
  }
  heard.push(await esp.say('confirm_action', {}));
  return heard;
}

async function speaker(endpoint: Partial<EndpointSettings> = {}, questions = false): Promise<Esp32Client> {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url(), ...endpoint }],
    servers: [
      fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' }),
      ...(questions ? [{ name: 'lc', transport: 'stdio' as const, command: process.execPath, args: [LONG_CALL_SERVER] }] : []),
    ],
  });
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  return Esp32Client.open(await ctx.xiaozhi.connection(0));
}

const ran = async () => (await ctx.harness!.bridge.api.getHistory()).filter((r) => /^deleted |^accept /.test(r.result));

describe('a model that confirms with what it read in its own answers', () => {
  it('cannot run an "ask first" tool: nothing it can read there confirms it', async () => {
    const esp = await speaker();
    const asked = await esp.say('delete_file', { path: '/home/me/report.docx' });
    await confirmWithWhatItRead(esp, asked);
    expect(await ran()).toEqual([]);
  }, 120_000);

  it('cannot run one through router mode either', async () => {
    const esp = await speaker({ toolMode: 'router' });
    const asked = await esp.say('call_tool', { name: 'delete_file', arguments: { path: '/home/me/old.log' } });
    await confirmWithWhatItRead(esp, asked);
    expect(await ran()).toEqual([]);
  }, 120_000);

  it("cannot read the PIN in another tool's answer either (a file tool reading the config where it is kept)", async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      confirmation: { pin: '482193' },
      endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
      servers: [
        fixtureServer('files', {
          FIXTURE_DESTRUCTIVE: '1',
          NOTES: '{"confirmation": {"pin": "482193"}, "port": 14821930}',
          NOTES_ZH: '口令：４８２１９３，别告诉别人…',
        }),
      ],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
    const read = await esp.say('getenv', { name: 'NOTES' });
    // Hidden where it stands whole; a longer number that holds its digits is left as it is.
    expect(read).toBe('{"confirmation": {"pin": "******"}, "port": 14821930}');
    // Full-width digits are found too, and the rest of the answer keeps its own characters (not made "," or "...").
    expect(await esp.say('getenv', { name: 'NOTES_ZH' })).toBe('口令：******，别告诉别人…');
    const asked = await esp.say('delete_file', { path: '/home/me/report.docx' });
    await confirmWithWhatItRead(esp, `${asked} ${read}`);
    expect(await ran()).toEqual([]);
  }, 120_000);

  it('cannot read part of the PIN where a long answer is cut short to fit the message (its first digits before the cut)', async () => {
    const pin = '482193';
    const total = 9000;
    // Where xiaozhi's 8 KB message cuts an answer this long (the request id moves it by a character or two).
    const cut = (shapeResult(textResult('x'.repeat(total)), 8192, '10').content[0] as { text: string }).text.indexOf('\n…');
    const notes = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => {
        const at = cut - 8 + i;
        return [`NOTES_${i}`, `${'x'.repeat(at)}${pin}${'x'.repeat(total - at - pin.length)}`];
      }),
    );
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      confirmation: { pin },
      endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
      servers: [fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1', ...notes })],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
    const shown: string[] = [];
    for (const name of Object.keys(notes)) {
      const read = await esp.say('getenv', { name });
      // Cut: what was shown, then a line saying how much.
      expect(read.length).toBeLessThan(total);
      shown.push(read.slice(0, read.lastIndexOf('\n')).replace(/^x+/, ''));
    }
    // Each cut answer shows the PIN hidden (whole or in part), never its first digits.
    for (const head of shown) expect(head).toMatch(/^\**x*$/);
  }, 120_000);

  it("cannot read the PIN in a server's question put to it either (a question quoting the file it read)", async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      confirmation: { pin: '482193' },
      endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
      servers: [
        // A tool that asks first: confirm_action is served, so the question is put by voice.
        fixtureServer('files', { FIXTURE_DESTRUCTIVE: '1' }),
        {
          name: 'lc',
          transport: 'stdio' as const,
          command: process.execPath,
          args: [LONG_CALL_SERVER],
          env: { CONFIRM_MESSAGE: 'config.json has "pin": "482193". Replace it?' },
        },
      ],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const esp = await Esp32Client.open(await ctx.xiaozhi.connection(0));
    const asked = await esp.say('confirm_user');
    expect(asked).toContain('"pin": "******"');
    await confirmWithWhatItRead(esp, asked);
    expect(await ran()).toEqual([]);
  }, 120_000);

  it("cannot say yes to a server's yes/no question during its call", async () => {
    const esp = await speaker({}, true);
    const asked = await esp.say('confirm_user');
    await confirmWithWhatItRead(esp, asked);
    expect(await ran()).toEqual([]);
  }, 120_000);
});
