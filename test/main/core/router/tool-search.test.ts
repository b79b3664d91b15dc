import { describe, expect, it } from 'vitest';
import { expandQuery } from '../../../../src/main/core/router/search-glossary';
import { searchTerms, splitWords } from '../../../../src/main/core/router/search-text';
import { ToolSearch, argumentText } from '../../../../src/main/core/router/tool-search';
import { catalogEntries, loadQueries, type Query } from '../../../helpers/catalogs';

const search = new ToolSearch(catalogEntries());

function rankOf(query: Query): { rank: number; top: string[] } {
  const top = search.search(query.query, 5).map((hit) => `${hit.entry.server}/${hit.entry.name}`);
  return { rank: top.findIndex((key) => query.expect.includes(key)), top };
}

describe('search terms', () => {
  it('splits names on _, -, dots, camelCase and digits, keeping a camelCase word whole too', () => {
    expect(splitWords('HassTurnOff')).toEqual(['hassturnoff', 'Hass', 'Turn', 'Off']);
    expect(splitWords('get-tickets')).toEqual(['get', 'tickets']);
    expect(splitWords('maps_direction_driving')).toEqual(['maps', 'direction', 'driving']);
    expect(splitWords('weather.get')).toEqual(['weather', 'get']);
    expect(searchTerms('GitHub')).toEqual(['github', 'git', 'hub']);
  });

  it('stems English and drops words that say nothing', () => {
    expect(searchTerms('Turn off the living room lights')).toEqual(['turn', 'off', 'live', 'room', 'light']);
    expect(searchTerms('reminders')).toEqual(searchTerms('reminder'));
    expect(searchTerms("what's the news")).toEqual(['news']);
  });

  it('cuts Chinese into character bigrams, also inside mixed text', () => {
    expect(searchTerms('天气预报')).toEqual(['天气', '气预', '预报']);
    expect(searchTerms('灯')).toEqual(['灯']);
    expect(searchTerms('看看GitHub上的issue')).toEqual(['看看', 'github', 'git', 'hub', '上的', 'issu']);
  });

  it('reads argument names, descriptions and enum values of nested schemas', () => {
    const text = argumentText({ type: 'object', properties: { city: { type: 'string', description: '城市名称' }, unit: { enum: ['celsius', 'fahrenheit'] }, stops: { type: 'array', items: { type: 'object', properties: { station: { description: 'station code' } } } } } });
    for (const word of ['city', '城市名称', 'celsius', 'fahrenheit', 'stops', 'station', 'station code']) expect(text).toContain(word);
  });

  it('expands a query with the same concept in the other language', () => {
    expect(expandQuery('把客厅的灯关掉', searchTerms('把客厅的灯关掉')).related).toEqual(expect.arrayContaining(['light', 'turn', 'off']));
    expect(expandQuery('remind me to call mom', searchTerms('remind me to call mom')).related).toContain('提醒');
    expect(expandQuery('what do you remember', searchTerms('what do you remember')).intent).toContain('search');
    expect(expandQuery('remember my wife likes tulips', searchTerms('remember my wife likes tulips')).intent).toContain('add');
    expect(expandQuery('what do you remember', searchTerms('what do you remember')).intent).not.toContain('add');
  });
});

describe('tool search over 300 realistic tools', () => {
  it('has all 300 tools of the 10 servers', () => {
    expect(search.size).toBe(300);
    expect(new Set(catalogEntries().map((e) => e.server)).size).toBe(10);
  });

  it.each(loadQueries().map((q) => [q.query, q] as const))('finds the right tool in its top 3 for "%s"', (_text, query) => {
    const { rank, top } = rankOf(query);
    expect(rank, `top 5 was: ${top.join(', ')}`).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(3);
  });

  it('generalises to queries it was never tuned on (held-out set, at least 80% in the top 3)', () => {
    const queries = loadQueries('queries-heldout.json');
    const misses = queries.filter((q) => {
      const { rank } = rankOf(q);
      return rank < 0 || rank > 2;
    });
    expect(misses.length / queries.length, `missed: ${misses.map((q) => q.query).join(' | ')}`).toBeLessThanOrEqual(0.2);
  });

  it('finds nothing for a query with no meaningful word, and ranks a description override', () => {
    expect(search.search('the of and', 5)).toEqual([]);
    expect(search.search('', 5)).toEqual([]);
    const custom = new ToolSearch([
      { name: 'tool_a', server: 's', description: 'Does something generic', inputSchema: {} },
      { name: 'tool_b', server: 's', description: '查询家里的电表读数', inputSchema: {} },
    ]);
    expect(custom.search('电表读数是多少', 1)[0]?.entry.name).toBe('tool_b');
  });
});
