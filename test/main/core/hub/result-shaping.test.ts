import { describe, expect, it } from 'vitest';

import { responseBytes, resultText, shapeResult } from '../../../../src/main/core/hub/result-shaping';

describe('result shaping for xiaozhi', () => {
  it('passes small text through unchanged, JSON action payloads included', () => {
    const text = JSON.stringify({ action: 'play_music', song: '青花瓷' });
    expect(shapeResult({ content: [{ type: 'text', text }] }, 8192)).toEqual({ content: [{ type: 'text', text }] });
  });

  // Issue 35: every answer was copied into a new result, the bulk of a call's garbage with the history row.
  it('sends a plain text answer far within the limit as it came, and shapes one with anything more', () => {
    const plain = { content: [{ type: 'text' as const, text: 'sunny, 21 °C' }] };
    expect(shapeResult(plain, 8192)).toBe(plain);
    const more = { content: [{ type: 'text' as const, text: 'sunny' }], structuredContent: { temp: 21 } };
    expect(shapeResult(more, 8192)).toEqual({ content: [{ type: 'text', text: 'sunny' }] });
    const annotated = { content: [{ type: 'text' as const, text: 'sunny', annotations: { priority: 1 } }] };
    expect(shapeResult(annotated, 8192)).toEqual({ content: [{ type: 'text', text: 'sunny' }] });
    const two = {
      content: [
        { type: 'text' as const, text: 'a' },
        { type: 'text' as const, text: 'b' },
      ],
    };
    expect(shapeResult(two, 8192)).toEqual({ content: [{ type: 'text', text: 'a\nb' }] });
    expect(resultText({ content: [{ type: 'text', text: 'only' }] })).toBe('only');
  });

  it('keeps isError, and puts the reason in `error` too (xiaozhi-esp32-server reads only that one)', () => {
    expect(shapeResult({ content: [{ type: 'text', text: 'no' }], isError: true }, 8192)).toEqual({
      content: [{ type: 'text', text: 'no' }],
      isError: true,
      error: 'no',
    });
  });

  it('fits an error said twice (content and error) within the limit, cut the same in both', () => {
    for (const unit of ['汉', '"', 'a']) {
      const shaped = shapeResult({ content: [{ type: 'text', text: unit.repeat(9000) }], isError: true }, 4096, '7');
      const bytes = responseBytes(shaped, '7');
      expect(bytes).toBeLessThanOrEqual(4096);
      expect(bytes).toBeGreaterThan(3800);
      const text = (shaped.content[0] as { text: string }).text;
      expect(text).toMatch(/…\[truncated: showing \d+ of \d+ bytes\]$/);
      expect((shaped as { error?: string }).error).toBe(text);
    }
  });

  it('falls back to structured content when there is no content', () => {
    expect(resultText({ content: [], structuredContent: { temperature: 25 } })).toBe('{"temperature":25}');
  });

  it('cuts multi-byte and escaped text to fit exactly, never splitting a character', () => {
    for (const unit of ['汉', '"', '\n', '😀', 'a']) {
      for (const id of ['0', '"some-long-string-id_n_99"']) {
        const shaped = shapeResult({ content: [{ type: 'text', text: unit.repeat(9000) }] }, 4096, id);
        const bytes = responseBytes(shaped, id);
        expect(bytes).toBeLessThanOrEqual(4096);
        expect(bytes).toBeGreaterThan(3900);
        const text = (shaped.content[0] as { text: string }).text;
        expect(text).toMatch(/…\[truncated: showing \d+ of \d+ bytes\]$/);
        expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      }
    }
  });
});
