// Where the Electron binary is, without asking the electron package (whose require() would try to
// download it). Used by `npm start`, the Electron end-to-end tests and the smoke script.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The person's language, as the CLI picks it (src/cli/cli-language.ts): the first of LC_ALL, LC_MESSAGES
 * and LANG that is set decides; zh… is Chinese.
 */
export function speaksChinese(env = process.env) {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) if (env[name]) return /^zh/i.test(env[name]);
  return false;
}

/**
 * The headless app's command as it works in this clone: the config `run` reads by itself
 * (./xiaozhi-tray.json), made empty first when there is none ("--config FILE" left a person to guess FILE).
 */
export const headlessCommand = (root = ROOT) =>
  fs.existsSync(path.join(root, 'xiaozhi-tray.json'))
    ? 'npm run build && npx xiaozhi-tray run --ui'
    : "npm run build && echo '{}' > xiaozhi-tray.json && npx xiaozhi-tray run --ui";

/** What `npm start` says, in English and in Chinese (a script cannot load the app's TypeScript dictionaries). */
export const START_WORDS = {
  en: {
    cannotStart: (reason, hint) => `Cannot start the desktop app: ${reason}; ${hint}`,
    downloading: 'Downloading the Electron binary (once, about 100 MB; this can take a few minutes)…',
    noPackage: 'the electron package is not installed (run npm ci)',
    noBinary: (dist, skipped) =>
      `the Electron binary is not installed (${dist} is missing${skipped ? ': ELECTRON_SKIP_BINARY_DOWNLOAD is set' : ''})`,
    downloadFailed: (why) =>
      `the Electron binary could not be downloaded (${why}: offline, or a proxy in the way; ELECTRON_MIRROR names a mirror)`,
    exitCode: (code) => `exit code ${code}`,
    hint: `get it with \`npx install-electron\` (in mainland China through a mirror: ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/ npx install-electron), or run the headless app instead, in your browser: ${headlessCommand()}`,
  },
  zh: {
    cannotStart: (reason, hint) => `无法启动桌面版：${reason}。${hint}`,
    downloading: '正在下载 Electron 程序（只需一次，约 100 MB，可能要几分钟）…',
    noPackage: '没有安装 electron 软件包（请先运行 npm ci）',
    noBinary: (dist, skipped) => `没有安装 Electron 程序（缺少 ${dist}${skipped ? '，因为设置了 ELECTRON_SKIP_BINARY_DOWNLOAD' : ''}）`,
    downloadFailed: (why) => `Electron 程序下载失败（${why}：可能没有联网，或被代理挡住；可用 ELECTRON_MIRROR 指定镜像）`,
    exitCode: (code) => `退出码 ${code}`,
    hint: `请运行 \`npx install-electron\` 安装它（在中国大陆请用镜像：ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/ npx install-electron）；也可以不用桌面版，在浏览器里使用：${headlessCommand()}`,
  },
};

/** The words for this environment's language. */
export const startWords = (env = process.env) => (speaksChinese(env) ? START_WORDS.zh : START_WORDS.en);

/** The binary's path, or undefined with the reason in one line (in the language of `env`). */
export function findElectron(root = ROOT, env = process.env) {
  const words = startWords(env);
  const pkg = path.join(root, 'node_modules', 'electron');
  if (!fs.existsSync(path.join(pkg, 'package.json'))) return { reason: words.noPackage };
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const pathFile = path.join(pkg, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : '';
  const binary = override ? path.join(override, relative || 'electron') : relative ? path.join(pkg, 'dist', relative) : '';
  if (binary && fs.existsSync(binary)) return { binary };
  return {
    reason: words.noBinary(
      path.relative(root, path.join(pkg, 'dist')) || 'node_modules/electron/dist',
      Boolean(process.env.ELECTRON_SKIP_BINARY_DOWNLOAD),
    ),
  };
}

/** What to do about it, in the same line (English; `startWords().hint` in the person's language). */
export const ELECTRON_HINT = START_WORDS.en.hint;
