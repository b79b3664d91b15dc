import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32Client } from '../../../helpers/esp32-client';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';

// Issue 31: during a call by voice, a server's sampling request came back to the model as raw English
// with the error prefix twice ("MCP error -32601: MCP error -32601: sampling is only offered…"), and a
// question form the window cannot show was answered "declined" ("❌ User declined…") though nobody was
// asked. The real peer: @modelcontextprotocol/server-everything's trigger-sampling-request and
// trigger-elicitation-request (dist/tools/*.js), whose form has fields the window cannot show (arrays).

const EVERYTHING = path.resolve(__dirname, '../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ctx = withEndpointTeardown(afterEach);

async function speaker(language: 'zh-CN' | 'en'): Promise<Esp32Client> {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    ui: { language, theme: 'system', startHidden: false },
    endpoints: [{ id: 'e', name: 'speaker', url: ctx.xiaozhi.url() }],
    servers: [{ name: 'everything', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }],
  });
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  return Esp32Client.open(await ctx.xiaozhi.connection(0));
}

describe("a server's request during a call by voice that nobody can answer", () => {
  it('sampling: the model hears, in the voice language, that the tool wanted an AI model voice calls cannot offer', async () => {
    const esp = await speaker('zh-CN');
    expect(await esp.say('trigger-sampling-request', { prompt: 'hello' })).toBe(
      '工具调用错误: 工具“trigger-sampling-request”想在调用中使用 AI 模型，小智托盘无法为语音调用提供，所以它没有完成。',
    );
  }, 60_000);

  it('a form the window cannot show: nobody is asked, the tool is told no choice was made, and the model hears so', async () => {
    const esp = await speaker('en');
    const heard = await esp.say('trigger-elicitation-request');
    expect(heard).toMatch(
      /^The tool "trigger-elicitation-request" asked a question Xiaozhi Tray cannot show, so nobody was asked\. The tool said: /,
    );
    // MCP's "cancel": dismissed without a choice. "decline" told the tool a person said no.
    expect(heard).toContain('"action": "cancel"');
    expect(heard).not.toContain('declined');
    expect(await ctx.harness!.bridge.api.getElicitations()).toEqual([]);
  }, 60_000);
});
