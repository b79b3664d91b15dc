// Smoke test of a packaged release candidate, for a maintainer on a desktop (and the CI workflow):
//   npm run dist:dir && npm run smoke            # the unpacked app electron-builder just made
//   npm run smoke -- --app "/Applications/Xiaozhi Tray.app/Contents/MacOS/Xiaozhi Tray"
// It checks the fuses, launches the app with a data folder of its own against a stand-in xiaozhi
// endpoint on 127.0.0.1 and a real stdio MCP server, waits for "connected" and the tools, then asks
// the app to quit (a second launch with --quit) and checks that no server process is left.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { WebSocketServer } from 'ws';

import { ROOT } from './electron-binary.mjs';

const TIMEOUT_MS = 60_000;
const results = [];
const check = (ok, what) => {
  results.push(ok);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  return ok;
};

function packagedApp() {
  const flag = process.argv.indexOf('--app');
  if (flag > 0 && process.argv[flag + 1]) return path.resolve(process.argv[flag + 1]);
  const release = path.join(ROOT, 'release');
  const candidates =
    {
      linux: ['linux-unpacked/xiaozhi-tray', 'linux-arm64-unpacked/xiaozhi-tray'],
      win32: ['win-unpacked/Xiaozhi Tray.exe', 'win-arm64-unpacked/Xiaozhi Tray.exe'],
      darwin: ['mac-arm64/Xiaozhi Tray.app/Contents/MacOS/Xiaozhi Tray', 'mac/Xiaozhi Tray.app/Contents/MacOS/Xiaozhi Tray'],
    }[process.platform] ?? [];
  return candidates.map((c) => path.join(release, c)).find((c) => fs.existsSync(c));
}

/** The .app bundle (macOS) or the executable: what the fuses live in. */
const fuseTarget = (executable) => (executable.includes('.app/') ? executable.slice(0, executable.indexOf('.app/') + 4) : executable);

async function until(condition, what, exited = () => undefined) {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await condition())) {
    const code = exited();
    if (code !== undefined) throw new Error(`the app exited (code ${code}) while waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out after ${TIMEOUT_MS / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The xiaozhi side: accepts the app's WebSocket, initializes, lists the tools (again when they change). */
async function standInEndpoint() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  const state = { connected: false, tools: [] };
  wss.on('connection', (ws) => {
    state.connected = true;
    let nextId = 1;
    const lists = new Set();
    const send = (message) => ws.send(JSON.stringify({ jsonrpc: '2.0', ...message }));
    const listTools = () => {
      const id = nextId++;
      lists.add(id);
      send({ id, method: 'tools/list', params: {} });
    };
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.id === 0) {
        send({ method: 'notifications/initialized' });
        listTools();
      } else if (message.method === 'notifications/tools/list_changed') listTools();
      else if (lists.has(message.id)) state.tools = (message.result?.tools ?? []).map((tool) => tool.name);
    });
    send({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'smoke', version: '1' } },
    });
  });
  return {
    url: `ws://127.0.0.1:${wss.address().port}/mcp/?token=smoke-token`,
    state,
    close: () => new Promise((resolve) => wss.close(resolve)),
  };
}

async function main() {
  const app = packagedApp();
  if (!app || !fs.existsSync(app)) {
    console.error('No packaged app found: run `npm run dist:dir` first, or name it with --app PATH.');
    process.exit(2);
  }
  console.log(`smoke: ${app}`);

  const fuses = await getCurrentFuseWire(fuseTarget(app));
  const on = 49;
  check(fuses[FuseV1Options.RunAsNode] !== on, 'fuse: ELECTRON_RUN_AS_NODE is ignored');
  check(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable] !== on, 'fuse: NODE_OPTIONS is ignored');
  check(fuses[FuseV1Options.EnableNodeCliInspectArguments] !== on, 'fuse: --inspect is ignored');
  check(fuses[FuseV1Options.OnlyLoadAppFromAsar] === on, 'fuse: the app loads only from app.asar');
  check(fuses[FuseV1Options.EnableCookieEncryption] === on, 'fuse: cookies are encrypted');
  // (Enforced by Electron on macOS and Windows; the bit is set for every platform.)
  check(fuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation] === on, "fuse: app.asar's integrity is validated");
  check(fuses[FuseV1Options.GrantFileProtocolExtraPrivileges] !== on, 'fuse: file:// has no extra privileges');

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xiaozhi-tray-smoke-'));
  const dataDir = path.join(work, 'data');
  const pidFile = path.join(work, 'pids.txt');
  fs.mkdirSync(dataDir, { recursive: true });
  const endpoint = await standInEndpoint();
  const server = {
    name: 'smoke',
    transport: 'stdio',
    command: process.execPath,
    args: [path.join(ROOT, 'test', 'fixtures', 'fixture-server.mjs')],
    env: { FIXTURE_NAME: 'smoke', FIXTURE_PID_FILE: pidFile, FIXTURE_GRANDCHILD: '1' },
    enabled: true,
  };
  fs.writeFileSync(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({ version: 1, endpoints: [{ id: 'smoke', name: 'smoke', url: endpoint.url, enabled: true }], servers: [server] }),
  );
  const env = { ...process.env, XIAOZHI_TRAY_DATA_DIR: dataDir, XDG_CONFIG_HOME: path.join(work, 'config') };
  const logFile = path.join(dataDir, 'logs', 'xiaozhi-tray.log');
  const log = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');

  const child = spawn(app, [], { env, stdio: 'ignore' });
  let exitCode;
  child.on('exit', (code, signal) => (exitCode = code ?? signal));
  try {
    const early = () => exitCode;
    await until(() => log().includes('[endpoint:smoke] connected'), '"connected" in the log', early);
    check(true, 'the endpoint connected');
    await until(() => endpoint.state.tools.includes('echo'), "the server's tools on the endpoint", early);
    check(true, `the endpoint lists the tools (${endpoint.state.tools.length})`);
    await until(() => /window: (loaded|could not load)/.test(log()), 'the window to load', early);
    check(/window: loaded app:\/\/xiaozhi-tray\/index\.html/.test(log()), 'the window loaded from app://');
    const pids = fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    check(pids.length >= 2 && pids.every(alive), `the server runs (pids ${pids.join(', ')})`);

    // Quit the way a person does not have to think about: a second launch asks the first to quit.
    spawn(app, ['--quit'], { env, stdio: 'ignore' });
    await until(() => exitCode !== undefined, 'the app to exit');
    check(exitCode === 0, `the app exited (code ${exitCode})`);
    await until(() => !pids.some(alive), 'every server process to be gone');
    check(true, 'no server process is left');
    const uncaught = log()
      .split('\n')
      .filter((line) => /ERROR \[app\] (uncaught|unhandled)/.test(line));
    check(uncaught.length === 0, `no uncaught error in the log${uncaught.length ? `:\n${uncaught.join('\n')}` : ''}`);
  } catch (error) {
    check(false, error.message);
    console.log(log().split('\n').slice(-30).join('\n'));
    // Leave nothing running: the app (SIGTERM quits it cleanly), then any server it left.
    if (exitCode === undefined) {
      child.kill();
      await until(() => exitCode !== undefined, 'the app to stop').catch(() => child.kill('SIGKILL'));
    }
    const left = fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number).filter(alive) : [];
    for (const pid of left) process.kill(pid, 'SIGKILL');
  } finally {
    await endpoint.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(`smoke: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

await main();
