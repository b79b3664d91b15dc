import { describe, expect, it } from 'vitest';

import { commandWarnings } from '../../src/main/core/config/command-warnings';
import { englishText, ProblemError } from '../../src/main/core/problems/server-problems';
import { prepareChildRuntime } from '../../src/main/core/runtimes/child-runtime';
import { runtimeSource } from '../../src/main/core/runtimes/runtime-sources';
import { adviceFor } from '../../src/main/core/runtimes/runtime-store';
import { translator } from '../../src/shared/i18n/translate';
import { CHINA_ALTERNATIVES, CHINA_MIRRORS, type MirrorUrls, mirrorUrls } from '../../src/shared/mirrors';
import { problem } from '../../src/shared/problem';
import { logMessage, problemMessage } from '../../src/shared/problem-words';
import { installCommand } from '../../src/shared/runtime-need';
import { SettingsSchema, type StdioServerSettings } from '../../src/shared/settings';

const LANGUAGES = ['en', 'zh-CN'] as const;
const said = { runtime: 'uv', version: '0.12.0', host: 'pypi.tuna.tsinghua.edu.cn' };

describe("a runtime download's advice names something that works where the user is", () => {
  it('is chosen by the sources the runtime came from', () => {
    const china = mirrorUrls({ preset: 'china' }, 'default');
    expect(adviceFor(runtimeSource('uv', china)!, china)).toBe('china');
    expect(adviceFor(runtimeSource('node', china)!, china)).toBe('china');
    expect(adviceFor(runtimeSource('uv', {})!, {})).toBe('official');
    const own = { uvIndex: CHINA_ALTERNATIVES.uvIndex };
    expect(adviceFor(runtimeSource('uv', own)!, own)).toBe('custom');
  });

  for (const language of LANGUAGES) {
    const t = translator(language);
    it(`with the mainland China mirrors, a failed download names other mirrors there, not the setting already chosen (${language})`, () => {
      for (const code of ['server.runtimeDownloadFailed', 'server.runtimeMismatch'] as const) {
        const hint = problemMessage(t, problem(code, { ...said, reason: 'ENOTFOUND', advice: 'china' }), undefined)?.hint ?? '';
        expect(hint).toContain(CHINA_ALTERNATIVES.uvIndex);
        expect(hint).toContain(CHINA_ALTERNATIVES.nodeDist);
        expect(hint).not.toMatch(/closer download source|更近的下载源|choose Mainland China mirrors|选择中国大陆镜像/);
      }
    });

    it(`with the official sources, it names the mainland China mirrors, which now bring uv too (${language})`, () => {
      const hint = problemMessage(
        t,
        problem('server.runtimeDownloadFailed', { ...said, reason: 'ENOTFOUND', advice: 'official' }),
        undefined,
      )?.hint;
      expect(hint).toMatch(language === 'en' ? /choose Mainland China mirrors in Settings → Download sources/ : /选择中国大陆镜像/);
    });

    it(`in the window, a failed or refused download says to press the download button, and shows no config JSON (${language})`, () => {
      // The button is "下载 uv" on a card and "下载 uv 并添加" in the add step: the advice names it so in both (W3).
      const press = language === 'en' ? 'press the download button' : '点下载按钮';
      for (const code of ['server.runtimeDownloadFailed', 'server.runtimeMismatch'] as const) {
        for (const advice of ['official', 'china', 'custom'] as const) {
          const hint = problemMessage(t, problem(code, { ...said, reason: 'ENOTFOUND', file: 'uv.whl', advice }), undefined)?.hint ?? '';
          // Before: "再次启动该服务重试" in the add step, where no server exists yet, and `"mirrors": { "preset": "china" }`.
          expect(hint).not.toMatch(/start the server again|再次启动该服务|"preset"/);
          if (code === 'server.runtimeDownloadFailed' || advice !== 'custom') expect(hint.toLowerCase()).toContain(press.toLowerCase());
        }
      }
    });

    it(`a site it could not reach is said plainly: which site, what to do; no address or code (${language})`, () => {
      const network = { ...said, reason: 'network', detail: 'https://pypi.tuna.tsinghua.edu.cn/simple/uv/: ENOTFOUND' };
      for (const advice of ['official', 'china', 'custom'] as const) {
        const words = problemMessage(t, problem('server.runtimeDownloadFailed', { ...network, advice }), undefined)!;
        expect(words.message).toBe(
          language === 'en'
            ? 'The site uv is downloaded from (pypi.tuna.tsinghua.edu.cn) could not be reached.'
            : '连不上下载 uv 的网站（pypi.tuna.tsinghua.edu.cn）。',
        );
        expect(`${words.message} ${words.hint}`).not.toMatch(/ENOTFOUND|https?:\/\//);
        expect(words.hint).toMatch(language === 'en' ? /network/ : /网络/);
        expect(words.hint).toMatch(language === 'en' ? /Settings → Download sources/ : /“设置 → 下载源”/);
      }
    });

    it(`the config's mirror JSON goes to the log and the CLI, which read a config (${language})`, () => {
      const failed = problem('server.runtimeDownloadFailed', { ...said, reason: 'ENOTFOUND', advice: 'official' });
      expect(englishText(failed)).toContain('"mirrors": { "preset": "china" }');
    });

    it(`says what uv is where it offers to download it (${language})`, () => {
      // Once, on the catalogue card's line above "这台电脑上没有 uv：应用可以替你下载" (which said nothing of it).
      expect(t('catalogue.runs.uvx')).toMatch(
        language === 'en' ? /uv \(the tool that runs Python programs\)/ : /uv（运行 Python 程序的工具）/,
      );
    });

    it(`says a download that is not the genuine file in its own words, and one past its size or too slow (${language})`, () => {
      const mismatch = problemMessage(t, problem('server.runtimeMismatch', { ...said, file: 'uv.whl', advice: 'custom' }), undefined)!;
      expect(mismatch.message).toBe(
        language === 'en'
          ? 'The uv 0.12.0 that pypi.tuna.tsinghua.edu.cn sent is not the genuine one: its SHA-256 differs from the one the app carries. It was deleted and never run.'
          : 'pypi.tuna.tsinghua.edu.cn 发送的 uv 0.12.0 不是正版：它的 SHA-256 与应用自带的不一致。该文件已删除，从未运行。',
      );
      expect(mismatch.hint).toMatch(
        language === 'en' ? /^The source given for uv in Settings → Download sources/ : /^“设置 → 下载源”中为 uv 填写的下载源/,
      );
      const tooBig = problemMessage(
        t,
        problem('server.runtimeDownloadFailed', { ...said, reason: 'tooBig', megabytes: 21, advice: 'china' }),
        undefined,
      )!;
      expect(tooBig.message).toMatch(
        language === 'en' ? /sent more than the 21 MB that uv 0\.12\.0 is/ : /超过了 uv 0\.12\.0 的大小 21 MB/,
      );
      const tooSlow = problemMessage(
        t,
        problem('server.runtimeDownloadFailed', { ...said, reason: 'tooSlow', kilobytes: 16, seconds: 30 }),
        undefined,
      )!;
      expect(tooSlow.message).toMatch(language === 'en' ? /less than 16 KB in 30 s/ : /30 秒内发送的数据不足 16 KB/);
    });

    it(`headless, telling the user to install a runtime also says what --fetch-runtimes does (${language})`, () => {
      const install = installCommand('uv', 'linux', CHINA_MIRRORS);
      const missing = problemMessage(
        t,
        problem('server.runtimeMissing', { runtime: 'uv', command: 'uvx', install, advice: 'china' }),
        undefined,
      )!;
      // The command last, nothing after it to be copied with it.
      expect(missing.hint?.endsWith(install)).toBe(true);
      expect(missing.hint).not.toContain('"preset": "china"');
      const official = problemMessage(
        t,
        problem('server.runtimeMissing', { runtime: 'uv', command: 'uvx', install, advice: 'official' }),
        undefined,
      )!;
      expect(official.hint).toContain('"mirrors": { "preset": "china" }');
      expect(missing.hint).toContain('xiaozhi-tray run --fetch-runtimes');
      expect(missing.hint).toMatch(
        language === 'en' ? /fetches uv into its cache folder itself/ : /应用才会自己把 uv 下载到它的缓存文件夹/,
      );
      expect(t('catalogue.runtime.missing', { runtime: 'uv', install })).toMatch(/--fetch-runtimes.*uv/);
    });
  }
});

describe('headless without --fetch-runtimes, a missing uv is told one way, in the reader’s language (the catalogue’s way)', () => {
  const zh = translator('zh-CN');
  const settings = SettingsSchema.parse({ servers: [{ name: 'fetch', transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] }] });
  const stdio = settings.servers[0] as StdioServerSettings;
  const failure = async (urls: MirrorUrls) => {
    const error = await prepareChildRuntime(stdio, { PATH: '' }, undefined, urls, () => undefined, 'linux').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    return problemMessage(zh, (error as ProblemError).problem, undefined)!;
  };

  it('the failed server, official sources, Chinese window: the mirror install command the catalogue shows, and what turns the download on', async () => {
    const { hint } = await failure({});
    expect(hint).toContain(installCommand('uv', 'linux', CHINA_MIRRORS));
    expect(hint).not.toMatch(/astral\.sh|github/i);
    expect(hint).toContain('--fetch-runtimes');
    expect(hint).toMatch(/只有.*--fetch-runtimes/);
  });

  it('the failed server in a run whose window downloads on request: the Download button, not --fetch-runtimes', async () => {
    // Shot 43: "…只有用 xiaozhi-tray run --fetch-runtimes 启动，应用才会自己把 uv 下载…" while the page's button could.
    const onRequest = {
      fetchesOnStart: false,
      installed: () => undefined,
      version: () => '0.12.0',
      ensure: () => Promise.reject(new Error('not asked')),
    };
    for (const urls of [{}, CHINA_MIRRORS]) {
      const error = await prepareChildRuntime(stdio, { PATH: '' }, onRequest, urls, () => undefined, 'linux').catch((e: unknown) => e);
      const { message, hint } = problemMessage(zh, (error as ProblemError).problem, undefined)!;
      expect(message).toBe('“uvx”需要 uv，但这台电脑上没有安装。');
      expect(hint).toMatch(/^在“服务”页点“下载 uv”/);
      expect(hint).not.toMatch(/--fetch-runtimes|无界面/);
      expect((error as ProblemError).message).toContain('press Download uv');
    }
  });

  it('the failed server, China mirrors chosen: their command, no astral.sh', async () => {
    const { hint } = await failure(CHINA_MIRRORS);
    expect(hint).toContain(installCommand('uv', 'linux', CHINA_MIRRORS));
    expect(hint).not.toMatch(/astral\.sh|github/i);
  });

  it("run's first warning is worded in Chinese, with the same command", () => {
    const [warning] = commandWarnings(settings, { PATH: '' });
    expect(warning?.problem).toBeDefined();
    const line = logMessage(zh, { message: warning!.message, problem: warning!.problem });
    expect(line).toMatch(/^服务“fetch”：命令“uvx”需要 uv/);
    expect(line).toContain(installCommand('uv', process.platform, CHINA_MIRRORS, process.arch));
    expect(line).not.toMatch(/astral\.sh|github|not found/i);
    // The English (the JSON log's) keeps the official command.
    expect(logMessage(translator('en'), { message: warning!.message, problem: warning!.problem })).toBe(warning!.message);
  });

  it('a run with its web page says the page downloads it (Download uv), not that only --fetch-runtimes does', () => {
    // Shot 43 of the new user's walk: "…PATH 上找不到它。用 --fetch-runtimes 启动…" while the page's button could download it.
    for (const mirrors of [{}, { preset: 'china' as const }]) {
      const withPage = SettingsSchema.parse({ ...settings, mirrors });
      const [warning] = commandWarnings(withPage, { PATH: '' }, { runtimesOnly: true, pageDownloads: true });
      const line = logMessage(zh, { message: warning!.message, problem: warning!.problem });
      expect(line).toMatch(/^服务“fetch”：命令“uvx”需要 uv，这台电脑上没有安装。请在网页界面的“服务”页点“下载 uv”/);
      expect(line).not.toMatch(/--fetch-runtimes|PATH/);
      expect(warning!.message).toContain('press Download uv');
    }
  });
});
