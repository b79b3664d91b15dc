import { describe, expect, it } from 'vitest';

import { expandQuery } from '../../../../src/main/core/router/search-glossary';
import { searchTerms, splitWords } from '../../../../src/main/core/router/search-text';
import { argumentText, ToolSearch } from '../../../../src/main/core/router/tool-search';
import { catalogEntries, everydayCatalogEntries, loadQueries, type Query } from '../../../helpers/catalogs';

const search = new ToolSearch(catalogEntries());
/** A new user's 48 tools: the published servers' own tool lists (see capture-published.mjs). */
const everyday = new ToolSearch(everydayCatalogEntries());

/** Where the first right tool is among the top 5 (-1: not there), and the top 5 as `server/tool`. */
function rankOf(
  query: Query,
  over: ToolSearch<{ name: string; server: string; description: string; inputSchema: Record<string, unknown>; original?: string }> = search,
): { rank: number; top: string[] } {
  const top = over.search(query.query, 5).map((hit) => `${hit.entry.server}/${hit.entry.original ?? hit.entry.name}`);
  return { rank: top.findIndex((key) => query.expect.includes(key)), top };
}

/** The share of queries whose right tool is first. */
function firstRate(queries: Query[], over?: Parameters<typeof rankOf>[1]): number {
  return queries.filter((q) => rankOf(q, over).rank === 0).length / queries.length;
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
    const text = argumentText({
      type: 'object',
      properties: {
        city: { type: 'string', description: '城市名称' },
        unit: { enum: ['celsius', 'fahrenheit'] },
        stops: { type: 'array', items: { type: 'object', properties: { station: { description: 'station code' } } } },
      },
    });
    for (const word of ['city', '城市名称', 'celsius', 'fahrenheit', 'stops', 'station', 'station code']) expect(text).toContain(word);
  });

  it('expands a query with the same concept in the other language', () => {
    expect(expandQuery('把客厅的灯关掉', searchTerms('把客厅的灯关掉')).related).toEqual(expect.arrayContaining(['light', 'turn', 'off']));
    expect(expandQuery('remind me to call mom', searchTerms('remind me to call mom')).related).toContain('提醒');
    expect(expandQuery('what do you remember', searchTerms('what do you remember')).intent).toContain('search');
    expect(expandQuery('remember my wife likes tulips', searchTerms('remember my wife likes tulips')).intent).toContain('add');
    expect(expandQuery('what do you remember', searchTerms('what do you remember')).intent).not.toContain('add');
  });

  it('reads numbers with an operator between them, or adding numbers, as arithmetic; "add" alone as storing', () => {
    const related = (query: string) => expandQuery(query, searchTerms(query)).related;
    for (const query of [
      'what is 17 plus 25',
      '17加25等于多少',
      '十七加二十五',
      '帮我计算 128 + 256',
      '3 * 4',
      '12 - 5',
      'add two numbers',
      'add these up',
    ]) {
      expect(related(query), query).toEqual(expect.arrayContaining(['sum', 'calcul']));
    }
    for (const query of [
      'add milk to my shopping list',
      '2025-05-03 的火车票',
      '一百美元等于多少人民币',
      '把会议加到日历',
      'set a timer for 10 minutes',
    ]) {
      expect(related(query), query).not.toContain('sum');
    }
  });

  it('looks for what a thing is a kind of with less weight (rain is weather), and never the other way round', () => {
    const rain = expandQuery('明天会下雨吗', searchTerms('明天会下雨吗'));
    expect(rain.broader).toEqual(expect.arrayContaining(['weather', '天气']));
    expect(rain.related).toContain('rain');
    expect(expandQuery('weather tomorrow', searchTerms('weather tomorrow')).related).not.toContain('rain');
  });

  it('keeps opposite actions apart: locking a door does not look for unlocking it', () => {
    expect(expandQuery('lock the front door', searchTerms('lock the front door')).related).not.toContain('unlock');
    expect(expandQuery('把门锁上', searchTerms('把门锁上')).related).toContain('lock');
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

  it('ranks the right tool first for most of those queries (85% when this was written)', () => {
    expect(firstRate(loadQueries())).toBeGreaterThanOrEqual(0.8);
  });

  it('generalises to queries it was never tuned on (held-out set, at least 80% in the top 3)', () => {
    const queries = loadQueries('queries-heldout.json');
    const misses = queries.filter((q) => {
      const { rank } = rankOf(q);
      return rank < 0 || rank > 2;
    });
    expect(misses.length / queries.length, `missed: ${misses.map((q) => q.query).join(' | ')}`).toBeLessThanOrEqual(0.2);
    expect(firstRate(queries)).toBeGreaterThanOrEqual(0.75);
  });

  it('finds nothing for a query with no meaningful word, and ranks a description override', () => {
    expect(search.search('the of and', 5)).toEqual([]);
    expect(search.search('', 5)).toEqual([]);
    // Words no tool says: not every tool that adds or creates something (what a statement usually wants).
    for (const query of ['xyzzy', '量子物理', '你好', 'asdf qwer']) {
      expect(search.search(query, 5), query).toEqual([]);
      expect(everyday.search(query, 5), query).toEqual([]);
    }
    const custom = new ToolSearch([
      { name: 'tool_a', server: 's', description: 'Does something generic', inputSchema: {} },
      { name: 'tool_b', server: 's', description: '查询家里的电表读数', inputSchema: {} },
    ]);
    expect(custom.search('电表读数是多少', 1)[0]?.entry.name).toBe('tool_b');
  });

  it('reads a yes/no question as a question: "did anyone open new issues" lists issues rather than creating one', () => {
    const { rank, top } = rankOf({
      query: 'did anyone open new issues on my github repo',
      expect: ['github/list_issues', 'github/search_issues'],
    });
    expect(rank, `top 5 was: ${top.join(', ')}`).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(3);
    expect(expandQuery('do you remember my birthday', searchTerms('do you remember my birthday')).intent).toContain('search');
    expect(expandQuery('is the front door locked', searchTerms('is the front door locked')).intent).toContain('search');
    // 哪 asks where or which, however it is joined: 放哪了, 去哪, 哪天, 哪家.
    expect(expandQuery('我的钥匙放哪了', searchTerms('我的钥匙放哪了')).intent).toContain('search');
    expect(everyday.search('我的钥匙放哪了', 3).map((hit) => hit.entry.name)).toContain('search_nodes');
    expect(search.search('周末去哪玩', 5).map((hit) => hit.entry.name)).not.toContain('add_to_playlist');
    // An instruction is not a question.
    expect(expandQuery('turn off the light', searchTerms('turn off the light')).intent).not.toContain('search');
  });
});

describe("tool search over a new user's modest catalog (the published servers' own tool lists)", () => {
  const top = (query: string) => everyday.search(query, 5).map((hit) => `${hit.entry.server}/${hit.entry.original}`);

  it('has the 51 tools of the fixture server, server-everything, server-memory and a filesystem server, as served', () => {
    expect(everyday.size).toBe(51);
    const names = everydayCatalogEntries().map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining(['fixture_echo', 'everything_echo', 'weather_get', 'get-sum', 'search_nodes', 'create_directory']),
    );
  });

  it('"add two numbers" finds get-sum first, not the tools that add observations or create directories', () => {
    const hits = top('add two numbers');
    expect(hits[0]).toBe('everything/get-sum');
    expect(hits).not.toContain('filesystem/create_directory');
  });

  it('"what is 17 plus 25" finds get-sum first, and nothing that only shares a question word with it', () => {
    expect(top('what is 17 plus 25')).toEqual(['everything/get-sum']);
    expect(top('17加25等于多少')).toEqual(['everything/get-sum']);
  });

  it('"明天北京会下雨吗" finds the weather tool, and no memory or file tools next to it', () => {
    const hits = top('明天北京会下雨吗');
    expect(hits[0]).toBe('fixture/weather.get');
    expect(hits.filter((key) => key.startsWith('memory/') || key.startsWith('filesystem/'))).toEqual([]);
  });

  it.each(loadQueries('queries-everyday.json').map((q) => [q.query, q] as const))(
    'finds the right tool in its top 3 for "%s"',
    (_text, query) => {
      const { rank, top: hits } = rankOf(query, everyday);
      expect(rank, `top 5 was: ${hits.join(', ')}`).toBeGreaterThanOrEqual(0);
      expect(rank).toBeLessThan(3);
    },
  );

  it('ranks the right tool first for at least 90% of them (23 of 24 when this was written)', () => {
    expect(firstRate(loadQueries('queries-everyday.json'), everyday)).toBeGreaterThanOrEqual(0.9);
  });
});

describe('the score cut-off', () => {
  const tools = new ToolSearch([
    {
      name: 'get_weather',
      server: 'weather',
      description: 'Current weather and forecast for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    },
    {
      name: 'get_weather_alerts',
      server: 'weather',
      description: 'Weather warnings for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    },
    {
      name: 'list_files',
      server: 'files',
      description: 'List the files of a folder, including their size and the city of the photo',
      inputSchema: { type: 'object', properties: {} },
    },
    {
      name: 'search_notes',
      server: 'notes',
      description: 'Search notes by a query',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
    },
  ]);

  it('leaves out weak matches next to strong ones, keeping every strong one', () => {
    const names = tools.search('weather forecast for my city', 5).map((hit) => hit.entry.name);
    expect(names.slice(0, 2).sort()).toEqual(['get_weather', 'get_weather_alerts']);
    expect(names).not.toContain('list_files');
  });

  it('keeps the best match when all are weak, and leaves out tools that share only a question word', () => {
    expect(tools.search('what is in my notes', 5).map((hit) => hit.entry.name)).toEqual(['search_notes']);
    // Nothing says "photo of a cat" but list_files' description, weakly: it is still the answer.
    expect(tools.search('is there a photo', 5).map((hit) => hit.entry.name)[0]).toBe('list_files');
  });
});

describe('everyday voice requests, and no match rather than a wrong, risky one', () => {
  const alarm = {
    name: 'set_alarm',
    server: 'clock',
    description: '设置闹钟',
    inputSchema: { type: 'object', properties: { time: { type: 'string', description: '时间，如 07:00' } } },
  };
  const withAlarm = new ToolSearch([...catalogEntries(), alarm]);
  const everydayWithAlarm = new ToolSearch([...everydayCatalogEntries(), alarm]);
  const names = (
    over: ToolSearch<{ name: string; server: string; description: string; inputSchema: Record<string, unknown> }>,
    query: string,
  ) => over.search(query, 5).map((hit) => hit.entry.name);

  it('"明天早上七点叫我起床" and "wake me at 7" find the tool that sets an alarm (设置闹钟)', () => {
    for (const query of ['明天早上七点叫我起床', '早上六点半叫醒我', 'wake me at 7 tomorrow', 'set an alarm for 6:30']) {
      expect(names(withAlarm, query)[0], query).toBe('set_alarm');
      expect(names(everydayWithAlarm, query)[0], query).toBe('set_alarm');
    }
  });

  it('reads the everyday things people ask a speaker for in both languages', () => {
    const cases: [string, string[]][] = [
      ['关灯', ['light']],
      ['turn the lights off', ['关掉']],
      ['静音', ['mute']],
      ['mute the speaker', ['静音']],
      ['取消明天的会议', ['cancel']],
      ['cancel my meeting', ['取消']],
      ['记在备忘录里', ['note', 'memo']],
      ['发条消息给妈妈', ['messag']],
      ['send a text message to mom', ['消息', '短信']],
      ['苹果用英语怎么说', ['translat']],
      ['明天风大不大', ['wind']],
      ['拍张照片', ['camera', 'photo']],
      ['清空回收站', ['delet']],
      ['play the radio', ['电台']],
    ];
    for (const [query, expected] of cases) {
      expect(expandQuery(query, searchTerms(query)).related, query).toEqual(expect.arrayContaining(expected));
    }
    expect(names(withAlarm, '取消明天的会议')[0]).toBe('delete_event');
    expect(names(withAlarm, '把客厅的灯关了')).toContain('HassTurnOff');
  });

  it('finds nothing for "删除文件" where no tool deletes files, rather than the tool that writes them or one that deletes something else', () => {
    for (const query of ['删除文件', '把这个文件删掉', 'delete the file notes.txt', 'remove the old log files']) {
      expect(names(everydayWithAlarm, query), query).toEqual([]);
      expect(names(withAlarm, query), query).toEqual([]);
    }
    // With a tool that does it, that one.
    const deleting = new ToolSearch([
      ...everydayCatalogEntries(),
      {
        name: 'delete_file',
        server: 'filesystem',
        description: 'Delete a file',
        inputSchema: { type: 'object', properties: { path: {} } },
      },
    ]);
    for (const query of ['删除文件', 'delete the file notes.txt', 'remove the old log files'])
      expect(names(deleting, query)[0], query).toBe('delete_file');
    // Deleting what the tools do delete still finds them.
    expect(names(withAlarm, '删除明天的提醒')[0]).toBe('delete_reminder');
    expect(names(everydayWithAlarm, 'forget what you know about Bob').slice(0, 3)).toEqual(expect.arrayContaining(['delete_entities']));
    expect(names(withAlarm, 'delete the email from Alice')[0]).toBe('delete_email');
  });

  it('reads "don\'t forget" and "别忘掉" as remembering, never as deleting', () => {
    for (const query of ["don't forget to buy milk", '别忘掉我的生日']) {
      for (const over of [withAlarm, everydayWithAlarm])
        expect(
          names(over, query).filter((n) => n.startsWith('delete')),
          query,
        ).toEqual([]);
    }
    expect(names(withAlarm, "don't forget to buy milk")[0]).toBe('HassShoppingListAddItem');
  });
});
