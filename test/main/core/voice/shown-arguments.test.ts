import { describe, expect, it } from 'vitest';

import { describeAction, shownArguments } from '../../../../src/main/core/hub/action-description';

// Before: delete_file {path, api_key: "sk-live-abcdef"} was held, and the window's panel and the
// voice text both said the key (only secrets the config knows were masked).
describe('arguments shown in a confirmation request', () => {
  it('hide the values of secret-like names, in the panel and in what the voice is told', () => {
    const args = { path: '/a', api_key: 'sk-live-abcdef', accessToken: 'tok-123' };
    expect(shownArguments(args)).toEqual([
      { name: 'path', value: '/a' },
      { name: 'api_key', value: '***' },
      { name: 'accessToken', value: '***' },
    ]);
    const action = describeAction({ name: 'delete_file', inputSchema: { type: 'object' } }, args, { language: 'en' });
    expect(action).not.toContain('sk-live');
    expect(action).not.toContain('tok-123');
  });

  it('keep ordinary values, names with "key" inside included', () => {
    expect(shownArguments({ keyword: 'weather', monkey: 'yes', password_hint: 'x' })).toEqual([
      { name: 'keyword', value: 'weather' },
      { name: 'monkey', value: 'yes' },
      { name: 'password_hint', value: '***' },
    ]);
  });
});
