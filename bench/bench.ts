/**
 * What the bridge costs, each figure beside its baseline measured in the same run (absolute times
 * drift on shared machines). The bridge runs as its own process (the headless CLI), exactly as
 * users run it; the bench process plays xiaozhi and the direct client.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ArgumentCheck } from '../src/main/core/hub/argument-check';
import { clientToken } from '../src/main/core/local-server/client-tokens';
import { LogBook } from '../src/main/core/logs/log-book';
import { CallHistory } from '../src/main/core/logs/call-history';
import { ToolRouter, type RouterEntry } from '../src/main/core/router/tool-router';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FakeXiaozhi, type FakeSession } from '../test/helpers/fake-xiaozhi';
import { stopChild } from '../test/helpers/stop-child';
import { waitFor } from '../test/helpers/wait';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'xiaozhi-tray.js');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'fixture-server.mjs');
const quick = process.argv.includes('--quick');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-bench-'));

interface Row {
  scenario: string;
  metric: string;
  bridge: number;
  baseline: number | null;
  unit: string;
  target: string;
  pass: boolean | null;
  note?: string;
}
const rows: Row[] = [];

const fixtureServer = (name: string, extraTools = 0) => ({
  name,
  transport: 'stdio',
  command: process.execPath,
  args: [FIXTURE],
  env: { FIXTURE_NAME: name, FIXTURE_EXTRA_TOOLS: String(extraTools) },
});

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * A row a percentile: the time per call through the bridge beside the same call made directly, passing
 * when the bridge adds at most the target (ms; null: shown, not judged).
 */
function addedLatencyRows(
  scenario: string,
  metric: (p: number) => string,
  through: number[],
  straight: number[],
  targets: [p: number, target: number | null][],
): void {
  for (const [p, target] of targets) {
    const b = percentile(through, p);
    const d = percentile(straight, p);
    rows.push({
      scenario,
      metric: metric(p),
      bridge: b,
      baseline: d,
      unit: 'ms',
      target: target === null ? '' : `+${target} ms`,
      pass: target === null ? null : b - d <= target,
      note: `added ${((b - d) * 1000).toFixed(0)} µs`,
    });
  }
}

/** Ends what a scenario opened, one after another in the order given. */
async function closeAll(...things: ({ close(): Promise<unknown> } | { stop(): Promise<unknown> })[]): Promise<void> {
  for (const thing of things) await ('close' in thing ? thing.close() : thing.stop());
}

/** Resident memory and CPU time of a process, from /proc (Linux; 0 elsewhere). */
function procStats(pid: number): { rssMb: number; cpuMs: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { rssMb: rss, cpuMs: ticks * 10 };
  } catch {
    return { rssMb: 0, cpuMs: 0 };
  }
}

interface RunningBridge {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

async function startBridge(
  name: string,
  endpoint: FakeXiaozhi | string,
  servers: unknown[],
  connection: Record<string, number> = {},
  extraArgs: string[] = [],
): Promise<RunningBridge> {
  const config = path.join(work, `${name}.json`);
  const url = typeof endpoint === 'string' ? endpoint : endpoint.url();
  fs.writeFileSync(
    config,
    JSON.stringify({
      endpoints: [{ id: 'bench', name: 'bench', url }],
      servers,
      connection,
      limits: { maxMessageBytes: 8192, callTimeoutMs: 60_000 },
    }),
  );
  // BENCH_BRIDGE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the bridge process.
  const nodeArgs = (process.env.BENCH_BRIDGE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'run', '--config', config, '--log-level', 'info', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MCP_ENDPOINT: '', XIAOZHI_TRAY_STATE_DIR: work },
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child,
    output: () => out,
    stop: () => stopChild(child),
  };
}

async function directClient(extraTools = 0): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [FIXTURE],
      env: { ...(process.env as Record<string, string>), FIXTURE_NAME: 'fx', FIXTURE_EXTRA_TOOLS: String(extraTools) },
      stderr: 'pipe',
    }),
  );
  return client;
}

async function servedSession(xiaozhi: FakeXiaozhi, index: number, expectTools: number, timeoutMs = 60_000): Promise<FakeSession> {
  const session = await xiaozhi.connection(index, timeoutMs);
  await session.initialize();
  let id = 1_000_000;
  await waitFor(
    async () => (await session.listAllTools((id += 1000))).tools.length >= expectTools,
    timeoutMs,
    `${expectTools} tools served`,
  );
  return session;
}

let nextId = 1;
const call = (session: FakeSession, name: string, args: Record<string, unknown>) =>
  session.request(nextId++, 'tools/call', { name, arguments: args }, 60_000);

/** A Python with the websockets package, for the pipe built like the official mcp_pipe.py. */
function findPython(): string | undefined {
  for (const python of ['python3', '/usr/bin/python3', 'python']) {
    if (spawnSync(python, ['-c', 'import websockets'], { stdio: 'ignore' }).status === 0) return python;
  }
  return undefined;
}

/** A pipe in front of the same server (it passes initialize through): the official-style one in Python, or the Node floor. */
async function startPipe(
  xiaozhi: FakeXiaozhi,
  command: string,
  script: string,
  env: Record<string, string> = {},
): Promise<{ session: FakeSession; pid: number; stop(): Promise<void> }> {
  const child = spawn(command, [script, xiaozhi.url(), process.execPath, FIXTURE], {
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, FIXTURE_NAME: 'fx', ...env },
  });
  const session = await xiaozhi.connection(xiaozhi.sessions.length, 30_000);
  await session.initialize();
  return {
    session,
    pid: child.pid as number,
    stop: () => stopChild(child),
  };
}

/** A WebSocket <-> stdio pipe in Node that parses nothing: what any relay in Node costs at least. */
const NODE_PIPE = path.join(ROOT, 'bench', 'node-pipe.cjs');
const startNodePipe = (xiaozhi: FakeXiaozhi, env: Record<string, string> = {}) => startPipe(xiaozhi, process.execPath, NODE_PIPE, env);

async function latency(): Promise<void> {
  const n = quick ? 300 : 2000;
  const xiaozhi = await FakeXiaozhi.start();
  const bridge = await startBridge('latency', xiaozhi, [fixtureServer('fx')]);
  const session = await servedSession(xiaozhi, 0, 10);
  session.record = false;
  const direct = await directClient();
  const python = findPython();
  const pipe = python ? await startPipe(xiaozhi, python, path.join(ROOT, 'bench', 'python-pipe.py')) : undefined;
  if (pipe) pipe.session.record = false;
  const floor = await startNodePipe(xiaozhi);
  floor.session.record = false;
  const through: number[] = [];
  const straight: number[] = [];
  const piped: number[] = [];
  const floored: number[] = [];
  // Every path warmed the same: with 200 calls the bridge's JIT was still warming (it added
  // about twice what it adds in a bridge that has been serving for a while).
  for (let i = 0; i < (quick ? 500 : 2000); i++) {
    await call(session, 'echo', { text: 'warm' });
    await direct.callTool({ name: 'echo', arguments: { text: 'warm' } });
    if (pipe) await call(pipe.session, 'echo', { text: 'warm' });
    await call(floor.session, 'echo', { text: 'warm' });
  }
  // Interleaved, so all see the same machine at the same moments.
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await call(session, 'echo', { text: `x${i}` });
    through.push(performance.now() - t);
    t = performance.now();
    await direct.callTool({ name: 'echo', arguments: { text: `x${i}` } });
    straight.push(performance.now() - t);
    if (pipe) {
      t = performance.now();
      await call(pipe.session, 'echo', { text: `x${i}` });
      piped.push(performance.now() - t);
    }
    t = performance.now();
    await call(floor.session, 'echo', { text: `x${i}` });
    floored.push(performance.now() - t);
  }
  addedLatencyRows('1 latency', (p) => `p${p} per call`, through, straight, [
    [50, 0.3],
    [90, null],
    [99, 2],
  ]);
  if (pipe) {
    const added = percentile(through, 50) - percentile(straight, 50);
    const pipeAdded = percentile(piped, 50) - percentile(straight, 50);
    rows.push({
      scenario: '1 latency',
      metric: 'p50 added by the bridge vs by an official-style pipe (python-pipe.py)',
      bridge: added * 1000,
      baseline: pipeAdded * 1000,
      unit: 'µs',
      target: '≤ 0.5× the pipe',
      pass: added <= 0.5 * pipeAdded,
      note: `pipe p50 ${percentile(piped, 50).toFixed(2)} ms; bridge adds ${((added / pipeAdded) * 100).toFixed(0)}% of what the pipe adds`,
    });
    await pipe.stop();
  } else console.log('(no Python with the websockets package: the official-style pipe row is skipped)');
  const floorAdded = percentile(floored, 50) - percentile(straight, 50);
  rows.push({
    scenario: '1 latency',
    metric: 'floor: p50 added by a Node pipe that parses nothing (node-pipe.cjs)',
    bridge: (percentile(through, 50) - percentile(straight, 50)) * 1000,
    baseline: floorAdded * 1000,
    unit: 'µs',
    target: '',
    pass: null,
    note: `bridge vs floor; the floor pipe adds ${(floorAdded * 1000).toFixed(0)} µs`,
  });
  await closeAll(floor, direct, bridge, xiaozhi);
}

/** A local client (Cursor, VS Code) through the local MCP server over streamable HTTP, against the server called directly. */
async function localServer(): Promise<void> {
  const n = quick ? 300 : 2000;
  const token = 'bench-local-token-0123456789abcdef';
  const xiaozhi = await FakeXiaozhi.start();
  const tokenFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'xt-bench-token-')), 'token');
  fs.writeFileSync(tokenFile, token, { mode: 0o600 });
  const bridge = await startBridge('local', xiaozhi, [fixtureServer('fx')], {}, ['--mcp-port', '0', '--mcp-token-file', tokenFile]);
  await servedSession(xiaozhi, 0, 10);
  await waitFor(() => /Local MCP server[^\n]*\n\s+http:\/\/\S+/.test(bridge.output()), 30_000, 'the local MCP server');
  const url = (/Local MCP server[^\n]*\n\s+(http:\/\/\S+)/.exec(bridge.output()) as RegExpExecArray)[1] as string;
  const local = new Client({ name: 'bench-local', version: '1' }, { capabilities: {} });
  // Cursor's own token: the app's opens /mcp only.
  await local.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/cursor`), {
      requestInit: { headers: { Authorization: `Bearer ${clientToken(token, 'cursor')}` } },
    }),
  );
  const direct = await directClient();
  const through: number[] = [];
  const straight: number[] = [];
  for (let i = 0; i < 200; i++) {
    await local.callTool({ name: 'echo', arguments: { text: 'warm' } });
    await direct.callTool({ name: 'echo', arguments: { text: 'warm' } });
  }
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await local.callTool({ name: 'echo', arguments: { text: `x${i}` } });
    through.push(performance.now() - t);
    t = performance.now();
    await direct.callTool({ name: 'echo', arguments: { text: `x${i}` } });
    straight.push(performance.now() - t);
  }
  addedLatencyRows('7 local server', (p) => `p${p} per call, streamable HTTP`, through, straight, [
    [50, 2],
    [99, null],
  ]);
  await closeAll(local, direct, bridge, xiaozhi);
}

async function throughput(): Promise<void> {
  const seconds = quick ? 3 : 10;
  const inFlight = 64;
  const xiaozhi = await FakeXiaozhi.start();
  const bridge = await startBridge('throughput', xiaozhi, [fixtureServer('fx')]);
  const session = await servedSession(xiaozhi, 0, 10);
  const direct = await directClient();
  const run = async (one: () => Promise<unknown>) => {
    let count = 0;
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() < end) {
          await one();
          count++;
        }
      }),
    );
    return count / seconds;
  };
  session.record = false;
  const pid = bridge.child.pid as number;
  const childPid = Number(fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0]);
  const cpu0 = { bench: process.cpuUsage(), bridge: procStats(pid).cpuMs, child: procStats(childPid).cpuMs };
  const viaBridge = await run(() => call(session, 'echo', { text: 't' }));
  const benchCpu = process.cpuUsage(cpu0.bench);
  const bridgeCpuMs = procStats(pid).cpuMs - cpu0.bridge;
  const viaDirect = await run(() => direct.callTool({ name: 'echo', arguments: { text: 't' } }));
  rows.push({
    scenario: '2 throughput',
    metric: `${inFlight} in flight, ${seconds} s`,
    bridge: viaBridge,
    baseline: viaDirect,
    unit: 'calls/s',
    target: '≥ 70% of direct',
    pass: viaBridge >= 0.7 * viaDirect,
    note: `${((viaBridge / viaDirect) * 100).toFixed(0)}% of direct`,
  });
  // Where the time goes: CPU of each process while calls went through the bridge.
  const bridgePerCall = (bridgeCpuMs * 1000) / (viaBridge * seconds);
  const childPerCall = ((procStats(childPid).cpuMs - cpu0.child) * 1000) / (viaBridge * seconds);
  // The floor: the same load through a Node pipe that parses nothing, in front of its own child.
  const floor = await startNodePipe(xiaozhi);
  floor.session.record = false;
  const floorChild = Number(fs.readFileSync(`/proc/${floor.pid}/task/${floor.pid}/children`, 'utf8').trim().split(' ')[0]);
  const floor0 = { pipe: procStats(floor.pid).cpuMs, child: procStats(floorChild).cpuMs };
  const viaFloor = await run(() => call(floor.session, 'echo', { text: 't' }));
  const floorPerCall = ((procStats(floor.pid).cpuMs - floor0.pipe) * 1000) / (viaFloor * seconds);
  const floorChildPerCall = ((procStats(floorChild).cpuMs - floor0.child) * 1000) / (viaFloor * seconds);
  await floor.stop();
  rows.push({
    scenario: '2 throughput',
    metric: 'floor: CPU per call of a Node pipe that parses nothing (its child)',
    bridge: floorPerCall,
    baseline: floorChildPerCall,
    unit: 'µs',
    target: '',
    pass: null,
    note: `${(floorPerCall / floorChildPerCall).toFixed(2)}× its child; ${Math.round(viaFloor)} calls/s, ${((viaFloor / viaDirect) * 100).toFixed(0)}% of direct`,
  });
  rows.push({
    scenario: '2 throughput',
    metric: 'bridge CPU per call (bench client, child)',
    bridge: bridgePerCall,
    baseline: childPerCall,
    unit: 'µs',
    target: '≤ 0.6× the child',
    pass: bridgePerCall <= 0.6 * childPerCall,
    note: `client ${((((benchCpu.user + benchCpu.system) / 1000) * 1000) / (viaBridge * seconds)).toFixed(0)} µs, child ${childPerCall.toFixed(0)} µs; bridge busy ${((bridgeCpuMs / (seconds * 1000)) * 100).toFixed(0)}% of a core`,
  });
  await closeAll(direct, bridge, xiaozhi);
}

async function manyServers(): Promise<void> {
  const count = quick ? 6 : 10;
  // Baseline: the slowest of the servers started alone, one after another.
  let slowestAlone = 0;
  for (let i = 0; i < Math.min(count, 5); i++) {
    const t = performance.now();
    const client = await directClient(40);
    await client.listTools();
    slowestAlone = Math.max(slowestAlone, performance.now() - t);
    await client.close();
  }
  const xiaozhi = await FakeXiaozhi.start();
  const started = performance.now();
  const bridge = await startBridge(
    'many',
    xiaozhi,
    Array.from({ length: count }, (_, i) => fixtureServer(`s${String(i).padStart(2, '0')}`, 40)),
  );
  const readyTimes: number[] = [];
  const watcher = setInterval(() => {
    const ready = (bridge.output().match(/\] running \(pid/g) ?? []).length;
    while (readyTimes.length < ready) readyTimes.push(performance.now());
  }, 1);
  const session = await xiaozhi.connection(0, 60_000);
  await session.initialize();
  let id = 5_000_000;
  let complete = 0;
  await waitFor(
    async () => {
      const { tools } = await session.listAllTools((id += 1000));
      if (tools.length >= count * 50) complete = performance.now();
      return complete > 0;
    },
    120_000,
    'the complete catalog',
  );
  clearInterval(watcher);
  const lastReady = readyTimes[count - 1] ?? complete;
  rows.push({
    scenario: '3 many servers',
    metric: `${count} servers × 50 tools: start → complete catalog`,
    bridge: complete - started,
    baseline: slowestAlone,
    unit: 'ms',
    target: '',
    pass: null,
    note: 'baseline: slowest server alone, start + list',
  });
  rows.push({
    scenario: '3 many servers',
    metric: 'complete catalog after the slowest server was ready',
    bridge: complete - lastReady,
    baseline: null,
    unit: 'ms',
    target: '≤ 300 ms',
    pass: complete - lastReady <= 300,
  });
  await closeAll(bridge, xiaozhi);
}

async function bigCatalog(): Promise<void> {
  const tools = 2000;
  const xiaozhi = await FakeXiaozhi.start();
  const bridge = await startBridge('big', xiaozhi, [fixtureServer('a', 990), fixtureServer('b', 990)]);
  const session = await servedSession(xiaozhi, 0, tools - 20 + 20, 60_000);
  const direct = await directClient(tools - 10);
  const times: number[] = [];
  const cpu: number[] = [];
  let pages = 0;
  for (let i = 0; i < 10; i++) {
    const before = procStats(bridge.child.pid as number).cpuMs;
    const t = performance.now();
    const listed = await session.listAllTools(10_000_000 + i * 10_000);
    times.push(performance.now() - t);
    cpu.push(procStats(bridge.child.pid as number).cpuMs - before);
    pages = listed.pages.length;
  }
  const t = performance.now();
  await direct.listTools();
  const directMs = performance.now() - t;
  rows.push({
    scenario: '4 big catalog',
    metric: `${tools} tools, ${pages} pages: full tools/list (median of 10)`,
    bridge: percentile(times, 50),
    baseline: directMs,
    unit: 'ms',
    target: '< 100 ms',
    pass: percentile(times, 50) < 100,
    note: 'baseline: one unpaged list from the server directly',
  });
  rows.push({
    scenario: '4 big catalog',
    metric: 'bridge CPU time for it (median, 10 ms resolution)',
    bridge: percentile(cpu, 50),
    baseline: null,
    unit: 'ms',
    target: '',
    pass: null,
  });
  await closeAll(direct, bridge, xiaozhi);
}

/** Takes xiaozhi away for `downMs`, brings it back on its port, and times how long until the bridge is serving it again. */
async function outage(xiaozhi: FakeXiaozhi, downMs: number): Promise<{ xiaozhi: FakeXiaozhi; backMs: number }> {
  const port = xiaozhi.port;
  await xiaozhi.close();
  await new Promise((resolve) => setTimeout(resolve, downMs));
  const again = await FakeXiaozhi.start({ port });
  const back = performance.now();
  const session = await again.connection(0, 60_000);
  await session.initialize();
  await session.request(1, 'tools/list', {});
  return { xiaozhi: again, backMs: performance.now() - back };
}

async function reconnect(): Promise<void> {
  const trials = quick ? 3 : 8;
  let xiaozhi = await FakeXiaozhi.start();
  const bridge = await startBridge('reconnect', xiaozhi, [fixtureServer('fx')], {
    stableAfterMs: 500,
    reconnectBaseMs: 1000,
    reconnectMaxMs: 60_000,
  });
  await servedSession(xiaozhi, 0, 10);
  const times: number[] = [];
  for (let i = 0; i < trials; i++) {
    // A stable session first, so the backoff starts over.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const after = await outage(xiaozhi, 300);
    xiaozhi = after.xiaozhi;
    times.push(after.backMs);
  }
  rows.push({
    scenario: '5 reconnect',
    metric: `endpoint back → serving again (median of ${trials})`,
    bridge: percentile(times, 50),
    baseline: null,
    unit: 'ms',
    target: '< 1000 ms',
    pass: percentile(times, 50) < 1000,
    note: `max ${Math.max(...times).toFixed(0)} ms`,
  });
  await closeAll(bridge, xiaozhi);
}

async function memory(): Promise<void> {
  const calls = quick ? 10_000 : 100_000;
  const xiaozhi = await FakeXiaozhi.start();
  const bridge = await startBridge(
    'memory',
    xiaozhi,
    Array.from({ length: 10 }, (_, i) => fixtureServer(`m${i}`)),
  );
  const session = await servedSession(xiaozhi, 0, 100);
  session.record = false;
  const pid = bridge.child.pid as number;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = procStats(pid).rssMb;
  // The highest RSS seen while hammering: with a young generation kept small, old space climbs and
  // drops by 20 MB between major GCs, so single readings compare one point of that saw with another.
  const hammer = async (count: number): Promise<number> => {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, procStats(pid).rssMb)), 100);
    let done = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (done < count) {
          done++;
          await call(session, 'm0_echo', { text: 'memory' });
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    clearInterval(sampler);
    return Math.max(peak, procStats(pid).rssMb);
  };
  // V8 grows its heap to a working set under load and keeps it; growth past that would be a leak.
  await hammer(5000);
  const early = procStats(pid).rssMb;
  const warm = await hammer(quick ? 10_000 : 50_000);
  const after = await hammer(calls);
  rows.push({
    scenario: '6 memory',
    metric: 'bridge RSS idle, 10 servers',
    bridge: idle,
    baseline: null,
    unit: 'MB',
    target: '≤ 60 MB',
    pass: idle <= 60,
  });
  // The floors: a Node process holding the socket and 10 servers on stdio that parses nothing, then
  // the same with the SDK's Client and Server loaded (the bridge needs both, for the handshake and lists).
  for (const [what, env] of [
    ['a Node pipe with 10 servers, parsing nothing', {}],
    ['the same with the MCP SDK client and server loaded', { PIPE_LOAD_SDK: '1' }],
  ] as const) {
    const floor = await startNodePipe(xiaozhi, { PIPE_SERVERS: '10', ...env });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    rows.push({
      scenario: '6 memory',
      metric: `floor: RSS idle of ${what}`,
      bridge: idle,
      baseline: procStats(floor.pid).rssMb,
      unit: 'MB',
      target: '',
      pass: null,
      note: 'bridge vs floor',
    });
    await floor.stop();
  }
  rows.push({
    scenario: '6 memory',
    metric: 'bridge RSS after 5,000 calls',
    bridge: early,
    baseline: idle,
    unit: 'MB',
    target: '≤ +25% over idle',
    pass: early <= idle * 1.25,
    note: `+${(((early - idle) / idle) * 100).toFixed(0)}% over idle`,
  });
  rows.push({
    scenario: '6 memory',
    metric: `bridge RSS, highest during ${(quick ? 10_000 : 50_000).toLocaleString('en')} more calls (working set)`,
    bridge: warm,
    baseline: idle,
    unit: 'MB',
    target: '',
    pass: null,
    note: `+${(((warm - idle) / idle) * 100).toFixed(0)}% over idle`,
  });
  rows.push({
    scenario: '6 memory',
    metric: `bridge RSS, highest during ${calls.toLocaleString('en')} more calls`,
    bridge: after,
    baseline: warm,
    unit: 'MB',
    target: '≤ +10%',
    pass: after <= warm * 1.1,
    note: `${(((after - warm) / warm) * 100).toFixed(1)}% over the working set`,
  });
  await closeAll(bridge, xiaozhi);
}

/** 150 MB of junk frames from the endpoint: what the bridge keeps of it afterwards. */
async function hostile(): Promise<void> {
  const xiaozhi = await FakeXiaozhi.start();
  const bridge = await startBridge('hostile', xiaozhi, [fixtureServer('fx')]);
  const session = await servedSession(xiaozhi, 0, 10);
  session.record = false;
  const pid = bridge.child.pid as number;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idle = procStats(pid).rssMb;
  const mb = 'x'.repeat(1_000_000);
  for (let i = 0; i < 150; i++) {
    // Unsolicited responses, huge ids, padded requests: the shapes that were kept before.
    if (i % 3 === 0) session.sendRaw(`{"jsonrpc":"2.0","id":${10_000 + i},"result":{"blob":"${mb}"}}`);
    else if (i % 3 === 1) session.sendRaw(`{"jsonrpc":"2.0","id":"${mb}","method":"ping"}`);
    else session.sendRaw(`{"jsonrpc":"2.0","id":${10_000 + i},"method":"ping","params":{"pad":"${mb}"}}`);
    if (i % 10 === 9) await call(session, 'echo', { text: 'still here' });
  }
  await call(session, 'echo', { text: 'after' });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const after = procStats(pid).rssMb;
  rows.push({
    scenario: '7 hostile',
    metric: 'bridge RSS after 150 MB of junk frames',
    bridge: after,
    baseline: idle,
    unit: 'MB',
    target: '< 150 MB',
    pass: after < 150,
    note: `idle ${idle.toFixed(0)} MB`,
  });
  await closeAll(bridge, xiaozhi);
}

/** A TCP relay in front of the endpoint that can go silent (no FIN, no RST): a half-open socket. */
async function silentRelay(targetPort: number): Promise<{ port: number; silence(): void; close(): void }> {
  const net = await import('node:net');
  const live = new Set<import('node:net').Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    live.add(client);
    client.on('data', (d) => live.has(client) && upstream.write(d));
    upstream.on('data', (d) => live.has(client) && client.write(d));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', () => live.has(client) && end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as { port: number }).port,
    // Existing connections stop carrying anything, in both directions, and are never closed.
    silence: () => live.clear(),
    close: () => server.close(),
  };
}

/** Default connection settings: an outage of 5 s, and a socket that goes silent. */
async function faults(): Promise<void> {
  let xiaozhi = await FakeXiaozhi.start();
  const bridge = await startBridge('faults', xiaozhi, [fixtureServer('fx')], {});
  await servedSession(xiaozhi, 0, 10);
  const outages: number[] = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const after = await outage(xiaozhi, 5000);
    xiaozhi = after.xiaozhi;
    outages.push(after.backMs);
  }
  const worst = Math.max(...outages);
  rows.push({
    scenario: '8 faults',
    metric: 'after a 5 s outage: endpoint back → serving (worst)',
    bridge: worst,
    baseline: null,
    unit: 'ms',
    target: '≤ 5000 ms',
    pass: worst <= 5000,
    note: outages.map((t) => t.toFixed(0)).join(', '),
  });
  await closeAll(bridge, xiaozhi);

  const target = await FakeXiaozhi.start();
  const relay = await silentRelay(target.port);
  const halfOpen = await startBridge('half-open', `ws://127.0.0.1:${relay.port}/mcp/?token=bench`, [fixtureServer('fx')]);
  await servedSession(target, 0, 10);
  relay.silence();
  const silent = performance.now();
  const session = await target.connection(1, 120_000);
  await session.initialize();
  await session.request(1, 'tools/list', {});
  const detected = performance.now() - silent;
  rows.push({
    scenario: '8 faults',
    metric: 'socket goes silent (half-open) → serving again',
    bridge: detected,
    baseline: null,
    unit: 'ms',
    target: '≤ 45000 ms',
    pass: detected <= 45_000,
  });
  await halfOpen.stop();
  relay.close();
  await target.close();
}

/** The realistic catalogs of the tests, copied under other names until there are `count` tools. */
function bigCatalogEntries(count: number): RouterEntry[] {
  const dir = path.join(ROOT, 'test', 'fixtures', 'catalogs', 'servers');
  const base: RouterEntry[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const catalog = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
      name: string;
      tools: { name: string; description: string; inputSchema: Record<string, unknown> }[];
    };
    for (const tool of catalog.tools) base.push({ ...tool, server: catalog.name, enabled: true });
  }
  const out: RouterEntry[] = [];
  for (let copy = 0; out.length < count; copy++) {
    for (const entry of base) {
      if (out.length >= count) break;
      out.push(copy === 0 ? entry : { ...entry, name: `${entry.name}_${copy}`, server: `${entry.server}-${copy}` });
    }
  }
  return out;
}

/** Router mode in-process: find_tools over 2,000 tools, and the argument check of a call. */
async function router(): Promise<void> {
  const entries = bigCatalogEntries(2000);
  const queries = (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'catalogs', 'queries.json'), 'utf8')) as { queries: { query: string }[] }
  ).queries.map((q) => q.query);
  const source = { version: 1, catalog: () => entries, call: async () => ({ result: { content: [] } }) };
  const toolRouter = new ToolRouter({ source, history: new CallHistory(), maxMessageBytes: () => 8192 });
  let t = performance.now();
  toolRouter.search('warm up the index', 1);
  const buildMs = performance.now() - t;
  const context = { caller: 'bench', idJson: '1' };
  for (let i = 0; i < 200; i++) await toolRouter.call('find_tools', { query: queries[i % queries.length] }, context);
  const times: number[] = [];
  const rounds = quick ? 500 : 4000;
  for (let i = 0; i < rounds; i++) {
    t = performance.now();
    await toolRouter.call('find_tools', { query: queries[i % queries.length] }, context);
    times.push(performance.now() - t);
  }
  rows.push({
    scenario: '7 router',
    metric: `find_tools over ${entries.length} tools, p50 (${queries.length} queries, en + zh)`,
    bridge: percentile(times, 50),
    baseline: null,
    unit: 'ms',
    target: '< 2 ms',
    pass: percentile(times, 50) < 2,
    note: `p90 ${percentile(times, 90).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms; index built in ${buildMs.toFixed(0)} ms`,
  });

  const check = new ArgumentCheck(new LogBook().logger('bench'));
  const tickets = entries.find((e) => e.name === 'get-tickets') as RouterEntry;
  const tool = { name: tickets.name, server: tickets.server, inputSchema: tickets.inputSchema };
  const good = { date: '2025-05-03', fromStation: 'BJP', toStation: 'SHH', trainFilterFlags: 'G', limitedNum: 5 };
  const bad = { date: 20250503, fromStation: 'BJP' };
  check.check(tool, good);
  const n = quick ? 50_000 : 500_000;
  t = performance.now();
  for (let i = 0; i < n; i++) check.check(tool, good);
  const perCallUs = ((performance.now() - t) * 1000) / n;
  t = performance.now();
  for (let i = 0; i < n / 10; i++) check.check(tool, bad);
  const rejectUs = ((performance.now() - t) * 1000) / (n / 10);
  rows.push({
    scenario: '7 router',
    metric: 'argument check per call, cached schema',
    bridge: perCallUs,
    baseline: null,
    unit: 'µs',
    target: '< 20 µs',
    pass: perCallUs < 20,
    note: `a rejected call (message written): ${rejectUs.toFixed(1)} µs`,
  });
}

function printTable(): void {
  const header = ['scenario', 'metric', 'bridge', 'baseline', 'target', 'ok', 'note'];
  const body = rows.map((r) => [
    r.scenario,
    r.metric,
    `${r.bridge.toFixed(r.unit === 'calls/s' ? 0 : 2)} ${r.unit}`,
    r.baseline === null ? '' : `${r.baseline.toFixed(r.unit === 'calls/s' ? 0 : 2)} ${r.unit}`,
    r.target,
    r.pass === null ? '' : r.pass ? 'yes' : 'NO',
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const b of body) console.log(line(b));
}

async function main(): Promise<void> {
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  const scenarios: [string, () => Promise<void>][] = [
    ['latency', latency],
    ['throughput', throughput],
    ['many', manyServers],
    ['big', bigCatalog],
    ['reconnect', reconnect],
    ['memory', memory],
    ['hostile', hostile],
    ['faults', faults],
    ['router', router],
    ['local', localServer],
  ];
  const started = performance.now();
  for (const [name, run] of scenarios) {
    if (only && !only.includes(name)) continue;
    const t = performance.now();
    process.stdout.write(`running ${name}… `);
    await run();
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  printTable();
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, platform: process.platform },
    quick,
    totalSeconds: (performance.now() - started) / 1000,
    rows,
  };
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten to bench/results/latest.json (${results.totalSeconds.toFixed(0)} s)`);
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
