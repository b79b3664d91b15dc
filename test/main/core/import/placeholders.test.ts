import { describe, expect, it } from 'vitest';

import { describePlaceholder } from '../../../../src/main/core/config/placeholders';

describe('a placeholder the file does not describe is described by its kind', () => {
  it('names each kind in full, none cut short by a prefix it does not have', () => {
    expect(describePlaceholder('input:api-key')).toBe('api-key');
    expect(describePlaceholder('env:GITHUB_TOKEN')).toBe('Environment variable GITHUB_TOKEN');
    expect(describePlaceholder('workspaceFolder')).toBe('The folder to use as ${workspaceFolder}');
    // `'userHome'.slice(6)` is "me".
    expect(describePlaceholder('userHome')).toBe('Your home folder (${userHome})');
  });
});
