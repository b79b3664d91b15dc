import { afterEach, describe, expect, it } from 'vitest';

import { displayWidth, padDisplay, shortenDisplay } from '../../src/cli/display-width';
import { CliHarness, fixtureEntry } from './cli-harness';

const h = new CliHarness();
afterEach(() => h.cleanup());

/** The terminal column where `needle` starts in `line`. */
const columnOf = (line: string, needle: string) => displayWidth(line.slice(0, line.indexOf(needle)));

describe('tables with Chinese names line up in a terminal', () => {
  it('counts East Asian wide characters as two columns and marks as none', () => {
    expect(displayWidth('天气')).toBe(4);
    expect(displayWidth('ｗｅａｔｈｅｒ')).toBe(14);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('한글 かな abc')).toBe(13);
    expect(padDisplay('天气', 6)).toBe('天气  ');
    expect(shortenDisplay('天气预报服务', 7)).toBe('天气预…');
    expect(displayWidth(shortenDisplay('天气预报服务', 7))).toBeLessThanOrEqual(7);
  });

  it('servers and tools put every column at the same place for Chinese and Latin names', async () => {
    const file = h.writeConfig({ mcpServers: { 天气服务: fixtureEntry({ FIXTURE_NAME: '天气' }), fx: fixtureEntry() } });
    const servers = await h.finished(['servers', '--config', file]);
    expect(servers.code, servers.err).toBe(0);
    const rows = servers.out.trimEnd().split('\n');
    const header = rows[0] as string;
    const chinese = rows.find((r) => r.startsWith('天气服务')) as string;
    const latin = rows.find((r) => r.startsWith('fx ')) as string;
    for (const [column, chineseCell, latinCell] of [
      ['TRANSPORT', 'stdio', 'stdio'],
      ['STATE', 'running', 'running'],
    ] as const) {
      expect(columnOf(chinese, chineseCell), chinese).toBe(columnOf(header, column));
      expect(columnOf(latin, latinCell), latin).toBe(columnOf(header, column));
    }

    const tools = await h.finished(['tools', '--config', file]);
    expect(tools.code, tools.err).toBe(0);
    const lines = tools.out.split('\n');
    const chineseEcho = lines.find((l) => l.includes('天气服务:echo')) as string;
    const latinEcho = lines.find((l) => l.includes(' fx:echo ')) as string;
    expect(columnOf(chineseEcho, 'Echoes'), `${chineseEcho}\n${latinEcho}`).toBe(columnOf(latinEcho, 'Echoes'));
  });

  it('in Chinese, the headings line up with the cells under them', async () => {
    const file = h.writeConfig({ mcpServers: { 天气服务: fixtureEntry({ FIXTURE_NAME: '天气' }), fx: fixtureEntry() } });
    const env = { LANG: 'zh_CN.UTF-8' };
    const servers = await h.finished(['servers', '--config', file], { env });
    expect(servers.code, servers.err).toBe(0);
    const rows = servers.out.trimEnd().split('\n');
    const header = rows[0] as string;
    expect(header).toMatch(/^名称 +传输方式 +状态 +工具数 +运行内容$/);
    for (const row of [rows.find((r) => r.startsWith('天气服务')), rows.find((r) => r.startsWith('fx '))] as string[]) {
      expect(columnOf(row, 'stdio'), row).toBe(columnOf(header, '传输方式'));
      expect(columnOf(row, '运行中'), row).toBe(columnOf(header, '状态'));
    }

    const tools = await h.finished(['tools', '--config', file], { env });
    expect(tools.code, tools.err).toBe(0);
    const lines = tools.out.split('\n');
    const heading = lines.find((l) => l.startsWith('  工具 ')) as string;
    const chineseEcho = lines.find((l) => l.includes('天气服务:echo')) as string;
    expect(columnOf(chineseEcho, '天气服务:echo'), `${heading}\n${chineseEcho}`).toBe(columnOf(heading, '来自'));
    expect(columnOf(chineseEcho, 'Echoes')).toBe(columnOf(heading, '说明'));
    // The size column ends where its heading ends.
    expect(columnOf(chineseEcho, ' B ') + 2).toBe(columnOf(heading, '大小') + 4);
  });
});
