import { describe, expect, it } from 'vitest';

import { shownConfirmation } from '../../../../src/main/core/bridge/commands/confirmation-commands';
import type { HeldCall } from '../../../../src/main/core/hub/builtin/confirmations';

const REORDERING = /[\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A held call as the confirmations keep it: the server wrote its title, xiaozhi's model its caller's words. */
function held(title: string, said: string): HeldCall {
  return {
    key: 1,
    session: 's1',
    via: 'pin',
    caller: 'xiaozhi',
    owner: 'e',
    server: 'files',
    tool: 'write_file',
    title,
    action: said,
    said: { 'zh-CN': said, en: said },
    args: { path: '/tmp/a' },
    askedAt: 0,
    expires: 1,
    run: () => Promise.reject(new Error('not run here')),
    ended: () => undefined,
  };
}

// A server's title with a direction override ran on into the line after it in the panel: the exact
// tool name shown there ("write_file") read backwards, a destructive call dressed as another.
describe('a held call as the window lists it', () => {
  it("shows the server's direction overrides and control characters in its title as codes, the tool's name as it is", () => {
    const shown = shownConfirmation(held('Read file\u202E', '本机文件的“Read file\u202E”'), (text) => text);
    expect(shown.title).not.toMatch(REORDERING);
    expect(shown.title).toBe('Read file\\u202e');
    expect(shown.said?.['zh-CN']).not.toMatch(REORDERING);
    expect(shown.said?.en).toBe('本机文件的“Read file\\u202e”');
    expect(shown.tool).toBe('write_file');
  });
});
