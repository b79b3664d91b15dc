import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { ArgumentCheck } from '../../../../src/main/core/hub/argument-check';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { CliHarness, fixtureEntry, TOKEN, waitForText } from '../../../cli/cli-harness';

/**
 * A server's `pattern` (and `patternProperties`) run by JavaScript's backtracking RegExp in the
 * bridge's one thread: "^(a+)+$" against "aaaa…!" takes 2^n steps. Our check leaves patterns to the
 * server (which checks them anyway), so neither an argument nor a result can freeze the bridge.
 */
const HOSTILE = path.resolve(__dirname, '../../../fixtures/hostile-server.mjs');
const EVIL = '^(a+)+$';
const h = new CliHarness();
afterEach(() => h.cleanup());

const check = () => new ArgumentCheck(new LogBook().logger('app'));
const tool = (inputSchema: Record<string, unknown>) => ({ name: 'lookup', server: 'codes', inputSchema });

describe('patterns in the argument and output checks', () => {
  it('are left to the server: an argument or a result the pattern refuses is not refused here', () => {
    const c = check();
    // With 40 a's, a backtracking RegExp would take days; nothing here may run it.
    const evil = `${'a'.repeat(40)}!`;
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: EVIL } }, required: ['code'] };
    expect(c.check(tool(schema), { code: evil })).toBeUndefined();
    expect(c.checkOutput({ name: 'status', server: 'codes', outputSchema: schema }, { code: evil })).toBeUndefined();
    // Keys are checked by patterns too (propertyNames, patternProperties): left to the server as well.
    const keyed = { type: 'object', properties: { map: { type: 'object', propertyNames: { pattern: EVIL } } } };
    expect(c.check(tool(keyed), { map: { [evil]: 1 } })).toBeUndefined();
    const byPattern = { type: 'object', patternProperties: { [EVIL]: { type: 'number' } }, additionalProperties: false };
    expect(c.check(tool(byPattern), { [evil]: 1 })).toBeUndefined();
    expect(c.check(tool(byPattern), { aaa: 1 })).toBeUndefined();
  });

  it('still checks everything else of the same schema', () => {
    const schema = {
      type: 'object',
      properties: { code: { type: 'string', pattern: EVIL, maxLength: 5 }, n: { type: 'number' } },
      required: ['code'],
      additionalProperties: false,
    };
    const c = check();
    expect(c.check(tool(schema), { n: 1 })).toContain('missing required argument "code"');
    expect(c.check(tool(schema), { code: 'aaaaaaa' })).toContain('"code" must be at most 5 characters long');
    expect(c.check(tool(schema), { code: 'a', extra: 1 })).toContain('unknown argument "extra"');
  });
});

async function bridgeWithHostileAndInnocent(extraTools: unknown[] = []) {
  const xiaozhi = await h.fakeXiaozhi();
  const dir = h.tempDir();
  const toolsFile = path.join(dir, 'tools.json');
  fs.writeFileSync(toolsFile, JSON.stringify(extraTools));
  const file = h.writeConfig(
    {
      mcpServers: {
        hostile: { command: process.execPath, args: [HOSTILE], env: { HOSTILE_TOOLS_FILE: toolsFile } },
        innocent: fixtureEntry({ FIXTURE_NAME: 'innocent' }),
      },
    },
    'mcp_config.json',
    dir,
  );
  // A separate process: a bridge stuck in a RegExp would stop this test's own thread too.
  const run = h.spawn(['run', '--config', file], { env: { MCP_ENDPOINT: xiaozhi.url(TOKEN) } });
  await waitForText(run.stdout, /\[server:innocent\] running/, 30_000);
  await waitForText(run.stdout, /\[server:hostile\] running/, 30_000);
  const session = await xiaozhi.connection(0, 30_000);
  await session.initialize();
  await session.listAllTools(100);
  return session;
}

describe('patterns that backtrack for ever, through the whole bridge', () => {
  it("a tool whose answer does not fit its own output schema's pattern does not freeze the bridge", async () => {
    const session = await bridgeWithHostileAndInnocent();
    // The hostile tool answers structuredContent {"code": "aaaa…a!"} (40 a's) against "^(a+)+$".
    const stuck = await session.request(300, 'tools/call', { name: 'status', arguments: {} }, 20_000);
    expect(stuck.result?.isError).not.toBe(true);
    // Before: no answer to either (the bridge was stuck in the RegExp for days).
    const answer = await session.request(301, 'tools/call', { name: 'innocent_echo', arguments: { text: 'still here' } }, 20_000);
    expect(answer.result?.content?.[0]?.text).toBe('innocent: still here');
  }, 120_000);

  it("an argument the model sent against a server's pattern does not freeze the bridge", async () => {
    const lookup = {
      name: 'lookup',
      description: 'Looks a code up',
      inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: EVIL } }, required: ['code'] },
    };
    const session = await bridgeWithHostileAndInnocent([lookup]);
    const sent = await session.request(300, 'tools/call', { name: 'lookup', arguments: { code: `${'a'.repeat(40)}!` } }, 20_000);
    // The server has the last word on its own pattern.
    expect(sent.result?.content?.[0]?.text).toContain('hostile:');
    const answer = await session.request(301, 'tools/call', { name: 'innocent_echo', arguments: { text: 'still here' } }, 20_000);
    expect(answer.result?.content?.[0]?.text).toBe('innocent: still here');
  }, 120_000);
});
