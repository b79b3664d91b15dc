import { describe, expect, it } from 'vitest';

import { formFields, MAX_CHOICE_CHARS, MAX_CHOICES } from '../../../../src/main/core/hub/elicitations';

// Before: a question's choices were unbounded in count and length (fields, titles and the
// message were bounded); the window would draw, and keep, whatever a server sent.
const form = (choices: string[]) => ({ properties: { pick: { type: 'string', enum: choices } } });

describe("a server's question with choices", () => {
  it('is shown with a bounded list', () => {
    const choices = Array.from({ length: MAX_CHOICES }, (_, i) => `choice ${i}`);
    expect(formFields(form(choices))?.[0]?.choices).toHaveLength(MAX_CHOICES);
  });

  it('too many choices, or one too long: declined rather than shown', () => {
    expect(formFields(form(Array.from({ length: MAX_CHOICES + 1 }, (_, i) => `c${i}`)))).toBeUndefined();
    expect(formFields(form(['yes', 'x'.repeat(MAX_CHOICE_CHARS + 1)]))).toBeUndefined();
  });
});
