import { describe, expect, it } from 'vitest';

import { withoutCodeFences } from '../../src/renderer/components/call-cause';

describe('a result’s code block in History (issue 33)', () => {
  it('is shown as plain preformatted text, without its ``` fences', () => {
    const result = 'Edited 购物清单.txt:\n```diff\n- 牛奶\n+ 酸奶\n```\nDone.';
    expect(withoutCodeFences(result)).toBe('Edited 购物清单.txt:\n- 牛奶\n+ 酸奶\nDone.');
    expect(withoutCodeFences('a ``` inside a line stays')).toBe('a ``` inside a line stays');
  });
});
