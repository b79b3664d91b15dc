import { describe, expect, it } from 'vitest';

import { PAGE_ITEMS, pageOver } from '../../../../../src/main/core/local-server/passthrough/paging';
import { MAX_MATCHED_TEMPLATES } from '../../../../../src/main/core/local-server/passthrough/template-match';
import { mapUri, ownerOf, prefixedUri, type UriOwners, uriOwners } from '../../../../../src/main/core/local-server/passthrough/uri-mapping';
import { scaled } from '../../../../helpers/time-scale';

const owners = (lists: Record<string, { uris?: string[]; templates?: string[] }>): UriOwners =>
  uriOwners(new Map(Object.entries(lists).map(([server, l]) => [server, { uris: new Set(l.uris ?? []), templates: l.templates ?? [] }])));

describe('resource URIs of several servers', () => {
  it('keeps a URI only one server claims, prefixes one two claim, and maps both back', () => {
    const o = owners({ a: { uris: ['file:///x', 'mem://only-a'] }, b: { uris: ['file:///x'] } });
    expect(mapUri(o, 'a', 'mem://only-a')).toBe('mem://only-a');
    expect(mapUri(o, 'a', 'file:///x')).toBe('xiaozhi-tray://a/file:///x');
    expect(ownerOf(o, 'mem://only-a')).toEqual({ server: 'a', uri: 'mem://only-a' });
    expect(ownerOf(o, 'xiaozhi-tray://b/file:///x')).toEqual({ server: 'b', uri: 'file:///x' });
    expect(ownerOf(o, 'file:///x')).toBeUndefined();
    // A URI no server listed: prefixed, as nothing else could say whose it is.
    expect(mapUri(o, 'b', 'mem://new')).toBe('xiaozhi-tray://b/mem://new');
    expect(ownerOf(o, 'mem://new')).toBeUndefined();
  });

  it('maps back exactly whatever the server name and the URI hold', () => {
    const names = ['天气 / weather', 'a%2Fb', 'x:y', ''];
    const uris = ['', '/', 'xiaozhi-tray://other/z', 'weird uri with spaces/%zz/??#', '\u0000\n天'];
    const o = owners(Object.fromEntries(names.map((n) => [n, { uris }])));
    for (const server of names)
      for (const uri of uris) {
        const shown = mapUri(o, server, uri);
        expect(ownerOf(o, shown)).toEqual({ server, uri });
      }
    expect(prefixedUri('a/b', 'u')).toBe('xiaozhi-tray://a%2Fb/u');
  });

  it('sends a URI only one server of several can expand to that server', () => {
    const o = owners({ a: { templates: ['note://{topic}/page'] }, b: { templates: ['doc://{id}'] } });
    expect(ownerOf(o, 'note://cats/page')).toEqual({ server: 'a', uri: 'note://cats/page' });
    expect(mapUri(o, 'b', 'doc://7')).toBe('doc://7');
  });

  it('keeps every URI of the only server that offers resources', () => {
    const o = owners({ a: {} });
    expect(mapUri(o, 'a', 'mem://dynamic')).toBe('mem://dynamic');
    expect(ownerOf(o, 'mem://dynamic')).toEqual({ server: 'a', uri: 'mem://dynamic' });
    // Its own URI that looks like ours is prefixed, so that it maps back.
    expect(mapUri(o, 'a', 'xiaozhi-tray://a/x')).toBe('xiaozhi-tray://a/xiaozhi-tray://a/x');
  });
});

describe('pages over several servers', () => {
  it('goes through every server in order, a bounded page at a time, and skips a server that went', () => {
    const groups = [
      { server: 'a', items: Array.from({ length: PAGE_ITEMS + 5 }, (_, i) => `a${i}`) },
      { server: 'c', items: ['c0', 'c1'] },
    ];
    const first = pageOver(groups, undefined);
    expect(first.items).toHaveLength(PAGE_ITEMS);
    const second = pageOver(groups, first.nextCursor);
    expect(second.items.map((p) => p.item)).toEqual(['a200', 'a201', 'a202', 'a203', 'a204', 'c0', 'c1']);
    expect(second.nextCursor).toBeUndefined();
    // The server the cursor names is gone: the next one's list starts the page.
    expect(pageOver([{ server: 'c', items: ['c0'] }], first.nextCursor).items.map((p) => p.item)).toEqual(['c0']);
    expect(() => pageOver(groups, 'not a cursor')).toThrow(/Invalid cursor/);
  });

  it("decides whose a URI is in linear time, whatever a hostile template or a client's URI holds", () => {
    // Six adjacent expressions: the SDK's regex backtracks for seconds on 80 characters.
    const o = owners({
      evil: { templates: ['note://{a}{b}{c}{d}{e}{f}{g}{h}!', 'x://{+a}{+b}{+c}{+d}{+e}{+f}{+g}!'] },
      good: { uris: ['u://1'] },
    });
    const started = Date.now();
    expect(ownerOf(o, `note://${'a'.repeat(120)}`)).toBeUndefined();
    expect(ownerOf(o, `x://${'a'.repeat(120)}`)).toBeUndefined();
    expect(ownerOf(o, `note://${'a'.repeat(20)}!`)).toEqual({ server: 'evil', uri: `note://${'a'.repeat(20)}!` });
    expect(mapUri(o, 'good', `note://${'a'.repeat(120)}`)).toBe(`xiaozhi-tray://good/note://${'a'.repeat(120)}`);
    // Seconds of backtracking before; microseconds now: a wide bound, scaled for a busy machine.
    expect(Date.now() - started).toBeLessThan(scaled(500));
  });

  it('matches templates as the SDK does: simple, reserved, path, label and query expressions', () => {
    const o = owners({
      a: { templates: ['file:///{+path}', 'mem://{x}/{y}', 'api://h{/seg}{.ext}{?q,r}'] },
      b: { uris: ['zzz'] },
    });
    expect(ownerOf(o, 'file:///a/b/c.txt')?.server).toBe('a');
    expect(ownerOf(o, 'mem://one/two')?.server).toBe('a');
    expect(ownerOf(o, 'mem://one/two/three')).toBeUndefined();
    expect(ownerOf(o, 'mem://one,x/two')).toBeUndefined();
    expect(ownerOf(o, 'api://h/s.json?q=1&r=2')?.server).toBe('a');
    expect(ownerOf(o, 'api://h/s.json?q=1')).toBeUndefined();
  });

  it('lists 5,000 URIs beside a server of 5,000 templates, templates past the bound claiming nothing (what keeps the matching bounded)', () => {
    const templates = Array.from({ length: 5000 }, (_, i) => `note://alpha/t${i}/{id}`);
    const uris = Array.from({ length: 5000 }, (_, i) => `note://beta/r${i}`);
    const o = owners({ alpha: { templates }, beta: { uris } });
    for (const uri of uris) expect(mapUri(o, 'beta', uri)).toBe(uri);
    expect(ownerOf(o, `note://alpha/t${MAX_MATCHED_TEMPLATES - 1}/x`)?.server).toBe('alpha');
    // Past the bound a template claims nothing (its server's list shows it prefixed: see resources.ts).
    expect(ownerOf(o, 'note://alpha/t4999/x')).toBeUndefined();
  });
});
