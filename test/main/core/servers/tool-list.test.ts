import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { checkTools, MAX_SCHEMA_DEPTH, skippedText, skippedWarning } from '../../../../src/main/core/servers/tool-list';
import { type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { hostileServer } from '../../../helpers/hostile-server';
import { waitFor } from '../../../helpers/wait';

const good = (name: string) => ({
  name,
  description: `${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
});

describe('checking a tools/list tool by tool', () => {
  it('keeps the good tools and says which bad one is wrong, and how', () => {
    const { tools, skipped } = checkTools([
      good('first'),
      { name: 'no_type', inputSchema: { properties: {} } },
      { description: 'nameless', inputSchema: { type: 'object' } },
      { name: 42, inputSchema: { type: 'object' } },
      { name: 'string_schema', inputSchema: 'object' },
      { name: 'no_schema' },
      'not a tool',
      null,
      { name: 'bad_required', inputSchema: { type: 'object', required: 'text' } },
      { name: 'bad_annotations', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'yes' } },
      good('last'),
    ]);
    expect(tools.map((t) => t.name)).toEqual(['first', 'last']);
    expect(skipped).toEqual([
      { name: 'no_type', position: 2, reason: 'notObject' },
      { position: 3, reason: 'noName' },
      { position: 4, reason: 'badName' },
      { name: 'string_schema', position: 5, reason: 'badSchema' },
      { name: 'no_schema', position: 6, reason: 'badSchema' },
      { position: 7, reason: 'notTool' },
      { position: 8, reason: 'notTool' },
      { name: 'bad_required', position: 9, reason: 'invalid', path: 'inputSchema.required' },
      { name: 'bad_annotations', position: 10, reason: 'invalid', path: 'annotations.readOnlyHint' },
    ]);
    expect(skipped.map(skippedText)).toContain('tool "no_type": its inputSchema does not say "type": "object", which MCP requires');
    expect(skipped.map(skippedText)).toContain('tool #3: it has no name');
  });

  it('serves a name listed many times once, and counts the copies', () => {
    const twins = Array.from({ length: 21 }, () => good('twin'));
    const { tools, skipped } = checkTools([good('a'), ...twins, good('b'), good('a')]);
    expect(tools.map((t) => t.name)).toEqual(['a', 'twin', 'b']);
    expect(skipped).toEqual([
      { name: 'twin', position: 3, reason: 'duplicate', times: 21 },
      { name: 'a', position: 24, reason: 'duplicate', times: 2 },
    ]);
    expect(skippedText(skipped[0]!)).toBe('tool "twin": listed 21 times (only the first is served)');
  });

  it('leaves out a schema nested deeper than anything can walk, without walking it recursively', () => {
    let inner: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200_000; i++) inner = { type: 'object', properties: { next: inner } };
    const { tools, skipped } = checkTools([{ name: 'deep', inputSchema: { type: 'object', properties: { deep: inner } } }, good('fine')]);
    expect(tools.map((t) => t.name)).toEqual(['fine']);
    expect(skipped).toEqual([{ name: 'deep', position: 1, reason: 'tooDeep' }]);
    expect(skippedText(skipped[0]!)).toContain(`more than ${MAX_SCHEMA_DEPTH} levels`);
  });

  it('words the warning with the first few and a count of the rest', () => {
    const raw = [good('ok'), ...Array.from({ length: 9 }, (_, i) => ({ name: `bad_${i}`, inputSchema: {} }))];
    const warning = skippedWarning({ ...checkTools(raw), cutShort: 'it listed more than 2000 tools; only the first 2000 are read' });
    expect(warning).toBe(
      'some tools it listed are left out (1 tool served): tool "bad_0": its inputSchema does not say "type": "object", which MCP requires; ' +
        'tool "bad_1": its inputSchema does not say "type": "object", which MCP requires; tool "bad_2": its inputSchema does not say "type": "object", which MCP requires; ' +
        'tool "bad_3": its inputSchema does not say "type": "object", which MCP requires; tool "bad_4": its inputSchema does not say "type": "object", which MCP requires; and 4 more. ' +
        'it listed more than 2000 tools; only the first 2000 are read',
    );
    expect(skippedWarning(checkTools([good('fine')]))).toBeUndefined();
  });
});

describe('what a server says of itself reaches the status within bounds', () => {
  let harness: Harness | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await harness?.bridge.stop();
    harness = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('tools left out with enormous names are shown by a cut name, and counted', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-status-'));
    const huge = Array.from({ length: 40 }, (_, i) => ({ name: `n${i}${'x'.repeat(200_000)}`, inputSchema: { properties: {} } }));
    const server = hostileServer(dir, 'names', huge);
    harness = makeBridge({ servers: [server] });
    harness.bridge.start();
    await waitFor(() => (harness!.bridge.state().servers[0]?.skippedToolCount ?? 0) === 40, 20_000, 'the tools to be left out');
    // Before: 20 names of 500,000 characters made the bridge state 10,000,000+ characters, sent with every status event.
    expect(JSON.stringify(harness.bridge.state()).length).toBeLessThan(20_000);
    const shown = harness.bridge.state().servers[0]!.skippedTools!;
    expect(shown.length).toBeLessThanOrEqual(20);
    expect(shown[0]!.name).toMatch(/^n0x+…$/);
    expect(harness.logBook.entries().every((e) => JSON.stringify(e).length < 10_000)).toBe(true);
  });
});
