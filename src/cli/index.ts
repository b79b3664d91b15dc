import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { APP_VERSION } from '../main/core/system/version';
import type { ProcessContext } from './command';
import { main } from './main';

// A closed pipe on stdout or stderr (`xiaozhi-tray tools | head`, a launcher that went away) is not a
// reason to crash mid-stop: the writes are dropped, the shutdown goes on.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

// The bundle lives in out/cli/; the script a service should run is bin/xiaozhi-tray.js next to it.
const bin = path.resolve(__dirname, '..', '..', 'bin', 'xiaozhi-tray.js');

// Built beside this bundle (scripts/build.mjs); the watchdog stops the servers if the bridge is killed.
const watchdog = path.join(__dirname, 'watchdog.js');

const ctx: ProcessContext = {
  version: APP_VERSION,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  platform: process.platform,
  home: os.homedir(),
  stdin: process.stdin,
  execPath: process.execPath,
  entryScript: fs.existsSync(bin) ? bin : fs.realpathSync(process.argv[1] ?? bin),
  ...(fs.existsSync(watchdog) ? { watchdog: { command: process.execPath, args: [watchdog] } } : {}),
};

main(process.argv.slice(2), ctx).then(
  (code) => process.exit(code),
  (error: unknown) => {
    ctx.err(`xiaozhi-tray: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
