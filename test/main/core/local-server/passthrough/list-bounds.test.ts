import { describe, expect, it } from 'vitest';

import { listAll, MAX_ITEM_CHARS, MAX_LIST_CHARS } from '../../../../../src/main/core/local-server/passthrough/upstream';

describe("a server's whole list, as the passthrough keeps it", () => {
  it('leaves out items of megabytes and stops at a bound in all, where every client would be sent them', async () => {
    // 20 pages of one resource whose URI is 5 MB: before, 100 MB kept and sent whole in one page to every client.
    const huge = { uri: `note://${'u'.repeat(5_000_000)}`, name: 'huge' };
    const items = await listAll(async (cursor) => {
      const n = Number(cursor ?? 0);
      return { items: [huge, { uri: `note://small/${n}`, name: `s${n}` }], nextCursor: n < 19 ? String(n + 1) : undefined };
    });
    expect(items.map((i) => i.name)).toEqual(Array.from({ length: 20 }, (_, n) => `s${n}`));
    expect(MAX_ITEM_CHARS).toBeLessThan(100_000);
  });

  it('stops once the items kept reach the bound in all', async () => {
    const item = (n: number) => ({ uri: `note://x/${n}`, description: 'd'.repeat(MAX_ITEM_CHARS - 100) });
    const items = await listAll(async (cursor) => {
      const n = Number(cursor ?? 0);
      return { items: Array.from({ length: 100 }, (_, i) => item(n * 100 + i)), nextCursor: String(n + 1) };
    });
    expect(JSON.stringify(items).length).toBeLessThanOrEqual(MAX_LIST_CHARS + MAX_ITEM_CHARS);
    expect(items.length).toBeGreaterThan(0);
  });
});
