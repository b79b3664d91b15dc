import type { CatalogueEntry } from '../../../shared/catalogue';
import type { ServerSettings } from '../../../shared/settings';

/** Whether a configured server runs what this entry runs (same package, or same remote address). */
export function isAdded(entry: CatalogueEntry, servers: ServerSettings[]): boolean {
  if (entry.run.transport === 'stdio') {
    const pkg = entry.run.args.find((a) => !a.startsWith('-') && !a.includes('{'));
    const base = (p: string) => p.replace(/(?<=.)@[^/@]*$/, '').replace(/==.*$/, '');
    return (
      pkg !== undefined &&
      servers.some(
        (s) =>
          s.transport === 'stdio' && s.command === (entry.run as { command: string }).command && s.args.some((a) => base(a) === base(pkg)),
      )
    );
  }
  const fixed = entry.run.url.split('{')[0] as string;
  if (!/^https?:\/\/[^/]+/.test(fixed)) return false;
  return servers.some((s) => (s.transport === 'sse' || s.transport === 'streamable-http') && s.url.startsWith(fixed));
}

/** `name`, or `name-2`, `name-3`… whichever no server has. */
export function freeName(name: string, taken: string[]): string {
  if (!taken.includes(name)) return name;
  for (let i = 2; ; i++) if (!taken.includes(`${name}-${i}`)) return `${name}-${i}`;
}

/**
 * The entries of `category` (all when empty) that match `query`: what it is (name, title, category)
 * ranks before what it merely mentions (keywords, description), so "天气" lists the weather servers
 * before the maps that can also tell the weather. `categoryName` is the category as the window words it.
 */
export function searchEntries(
  entries: readonly CatalogueEntry[],
  query: string,
  category: string,
  categoryName: (category: string) => string,
): CatalogueEntry[] {
  const q = query.trim().toLowerCase();
  const inCategory = entries.filter((e) => !category || e.category === category);
  if (!q) return inCategory;
  const has = (texts: string[]) => texts.some((s) => s.toLowerCase().includes(q));
  const rank = (e: CatalogueEntry) =>
    has([e.name, e.title.en, e.title.zh, e.category, categoryName(e.category)])
      ? 0
      : has(e.keywords)
        ? 1
        : has([e.description.en, e.description.zh])
          ? 2
          : 3;
  return inCategory
    .map((e) => ({ e, r: rank(e) }))
    .filter((x) => x.r < 3)
    .sort((a, b) => a.r - b.r)
    .map((x) => x.e);
}
