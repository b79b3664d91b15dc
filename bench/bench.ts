/**
 * What the bridge costs, each figure beside its baseline measured in the same run (absolute times
 * drift on shared machines). The bridge runs as its own process (the headless CLI), exactly as
 * users run it; the bench process plays xiaozhi and the direct client.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { ArgumentCheck } from '../src/main/core/hub/argument-check';
import { clientToken } from '../src/main/core/local-server/client-tokens';
import { CallHistory } from '../src/main/core/logs/call-history';
import { LogBook } from '../src/main/core/logs/log-book';
import { type RouterEntry, ToolRouter } from '../src/main/core/router/tool-router';
import { type FakeSession, FakeXiaozhi } from '../test/helpers/fake-xiaozhi';
import { stopChild } from '../test/helpers/stop-child';
import { waitFor } from '../test/helpers/wait';
import { FIGURES, formatValue, type HistoryLine, judge, parseHistory, regressionMessage } from './gate';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'xiaozhi-tray.js');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'fixture-server.mjs');
const quick = process.argv.includes('--quick');
/** --check: the regression gate (bench/gate.ts) over the gated scenarios; --record: the run's figures join bench/results/history.jsonl. */
const check = process.argv.includes('--check');
const record = process.argv.includes('--record');
const RESULTS = path.join(ROOT, 'bench', 'results');
// BENCH_HISTORY=FILE reads and records another history (trying the gate without touching the committed one).
const HISTORY = process.env.BENCH_HISTORY ?? path.join(RESULTS, 'history.jsonl');
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
/** The gate's figures (bench/gate.ts FIGURES), each a ratio to a floor of the same run, and what that floor measured. */
const figures = new Map<string, number>();
const floorsSeen = new Map<string, string>();

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

/**
 * CPU time of a process in µs, every thread summed, from /proc/PID/task/TID/schedstat (nanoseconds:
 * /proc/PID/stat counts 10 ms ticks, too coarse for a few hundred calls).
 */
function cpuMicros(pid: number): number {
  let ns = 0;
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`))
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
  return ns / 1000;
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
      // Every tool, as before the auto mode became the default (100 tools would be routed): figures compare across runs.
      endpoints: [{ id: 'bench', name: 'bench', url, toolMode: 'all' }],
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
    stop: async () => {
      await stopChild(child);
      // BENCH_BRIDGE_OUTPUT=DIR keeps each bridge's output (with BENCH_BRIDGE_NODE_ARGS=--trace-gc, its collections).
      if (process.env.BENCH_BRIDGE_OUTPUT) fs.writeFileSync(path.join(process.env.BENCH_BRIDGE_OUTPUT, `${name}.log`), out);
    },
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

/** The median of per-round values: a burst of load on the shared machine spoils one round, not the figure. */
function medianOfRounds(values: number[]): number {
  return percentile(values, 50);
}

async function latency(): Promise<void> {
  const n = quick ? 500 : 2000;
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
  // BENCH_SAMPLES=FILE keeps every call's time, for trying other estimators on the same run.
  if (process.env.BENCH_SAMPLES) fs.writeFileSync(process.env.BENCH_SAMPLES, JSON.stringify({ through, straight, piped, floored }));
  addedLatencyRows('1 latency', (p) => `p${p} per call`, through, straight, [
    [50, 0.3],
    [90, null],
    [99, 2],
  ]);
  const floorAdded = percentile(floored, 50) - percentile(straight, 50);
  // The figure (p50 added ÷ the floor's p50 added) is shown against its target; the gate reads
  // whole calls at the first quartile instead: the floor adds little, so a ratio of two small
  // differences swung 1.7-3.4× between runs at load 4-14, where p25 of whole calls kept within ±4 %.
  figures.set('latency_vs_node_floor', (percentile(through, 50) - percentile(straight, 50)) / floorAdded);
  figures.set('call_vs_node_floor', percentile(through, 25) / percentile(floored, 25));
  floorsSeen.set(
    'call_vs_node_floor',
    `a call through the Node pipe takes ${percentile(floored, 25).toFixed(3)} ms at p25 (adds ${(floorAdded * 1000).toFixed(0)} µs at p50)`,
  );
  if (pipe) {
    const addedAll = percentile(through, 50) - percentile(straight, 50);
    const pipeAdded = percentile(piped, 50) - percentile(straight, 50);
    figures.set('latency_vs_python_pipe', addedAll / pipeAdded);
    floorsSeen.set('latency_vs_python_pipe', `the Python pipe adds ${(pipeAdded * 1000).toFixed(0)} µs at p50`);
    rows.push({
      scenario: '1 latency',
      metric: 'p50 added by the bridge vs by an official-style pipe (python-pipe.py)',
      bridge: addedAll * 1000,
      baseline: pipeAdded * 1000,
      unit: 'µs',
      target: '≤ 0.5× the pipe',
      pass: addedAll <= 0.5 * pipeAdded,
      note: `pipe p50 ${percentile(piped, 50).toFixed(2)} ms; bridge adds ${((addedAll / pipeAdded) * 100).toFixed(0)}% of what the pipe adds`,
    });
    await pipe.stop();
  } else console.log('(no Python with the websockets package: the official-style pipe row is skipped)');
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

/**
 * A client of the local server written on node:http (keep-alive, one session): what a call costs
 * without the SDK's client (fetch, web streams, an SSE parser), so the rows split the added time
 * between the client's side and ours.
 */
async function rawLocalClient(
  url: string,
  token: string,
): Promise<{ call(id: number, name: string, args: unknown): Promise<void>; close(): void }> {
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
  };
  const post = (message: unknown) =>
    new Promise<{ status: number; session?: string; body: string }>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined, body }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(message));
    });
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-raw', version: '1' } },
  });
  if (!init.session) throw new Error(`the local server gave no session: ${init.status} ${init.body.slice(0, 200)}`);
  headers['Mcp-Session-Id'] = init.session;
  headers['Mcp-Protocol-Version'] = '2025-06-18';
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    async call(id, name, args) {
      const { status, body } = await post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
      if (status !== 200 || !body.includes(`"id":${id}`)) throw new Error(`raw call ${id}: ${status} ${body.slice(0, 200)}`);
    },
    close: () => agent.destroy(),
  };
}

/** A local client (Cursor, VS Code) through the local MCP server over streamable HTTP, against the server called directly. */
async function localServer(): Promise<void> {
  const n = quick ? 500 : 2000;
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
  const raw = await rawLocalClient(`${url}/cursor`, clientToken(token, 'cursor'));
  const through: number[] = [];
  const straight: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 200; i++) {
    await local.callTool({ name: 'echo', arguments: { text: 'warm' } });
    await direct.callTool({ name: 'echo', arguments: { text: 'warm' } });
    await raw.call(i + 1, 'echo', { text: 'warm' });
  }
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await local.callTool({ name: 'echo', arguments: { text: `x${i}` } });
    through.push(performance.now() - t);
    t = performance.now();
    await direct.callTool({ name: 'echo', arguments: { text: `x${i}` } });
    straight.push(performance.now() - t);
    t = performance.now();
    await raw.call(1000 + i, 'echo', { text: `x${i}` });
    bare.push(performance.now() - t);
  }
  raw.close();
  // CPU per call, which the load of other work on the machine changes far less than wall time: the
  // bridge's against its child's, over calls from the SDK client only.
  const pid = bridge.child.pid as number;
  const childPid = firstChild(pid);
  const cpu0 = { bridge: cpuMicros(pid), child: cpuMicros(childPid) };
  const cpuCalls = quick ? 500 : 2000;
  for (let i = 0; i < cpuCalls; i++) await local.callTool({ name: 'echo', arguments: { text: `c${i}` } });
  const bridgeUs = (cpuMicros(pid) - cpu0.bridge) / cpuCalls;
  const childUs = (cpuMicros(childPid) - cpu0.child) / cpuCalls;
  rows.push({
    scenario: '7 local server',
    metric: 'bridge CPU per call, streamable HTTP (its child)',
    bridge: bridgeUs,
    baseline: childUs,
    unit: 'µs',
    target: '',
    pass: null,
    note: `${(bridgeUs / childUs).toFixed(2)}× its child`,
  });
  figures.set('local_cpu_vs_child', bridgeUs / childUs);
  floorsSeen.set('local_cpu_vs_child', `bridge ${bridgeUs.toFixed(0)} µs per local call, its child ${childUs.toFixed(0)} µs`);
  addedLatencyRows('7 local server', (p) => `p${p} per call, streamable HTTP`, through, straight, [
    [50, 1],
    [99, null],
  ]);
  addedLatencyRows('7 local server', (p) => `p${p} per call, a client on node:http (no SDK client)`, bare, straight, [[50, null]]);
  figures.set('local_call_vs_direct', percentile(through, 25) / percentile(straight, 25));
  figures.set('local_added', percentile(through, 50) - percentile(straight, 50));
  floorsSeen.set('local_call_vs_direct', `the direct stdio call takes ${percentile(straight, 25).toFixed(3)} ms at p25`);
  await closeAll(local, direct, bridge, xiaozhi);
}

/** The first child process of a process (the server a bridge or a pipe runs). */
function firstChild(pid: number): number {
  return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0]);
}

async function throughput(): Promise<void> {
  const seconds = quick ? 3 : 10;
  // The bridge and the floor pipe take turns, a segment each per round, so both see the machine's
  // same moments; the gate's CPU ratios are the median of each round's.
  const rounds = quick ? 3 : 5;
  const inFlight = 64;
  const xiaozhi = await FakeXiaozhi.start();
  const bridge = await startBridge('throughput', xiaozhi, [fixtureServer('fx')]);
  const session = await servedSession(xiaozhi, 0, 10);
  const direct = await directClient();
  const floor = await startNodePipe(xiaozhi);
  floor.session.record = false;
  const run = async (one: () => Promise<unknown>, forSeconds: number) => {
    let count = 0;
    const end = performance.now() + forSeconds * 1000;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() < end) {
          await one();
          count++;
        }
      }),
    );
    return count;
  };
  session.record = false;
  const pid = bridge.child.pid as number;
  const childPid = firstChild(pid);
  const floorChild = firstChild(floor.pid);
  /** Runs calls through a relay for a segment: calls made, and CPU µs per call of the relay and of its child. */
  const segment = async (relay: number, child: number, one: () => Promise<unknown>) => {
    const before = { relay: procStats(relay).cpuMs, child: procStats(child).cpuMs, bench: process.cpuUsage() };
    const calls = await run(one, seconds / rounds);
    const bench = process.cpuUsage(before.bench);
    return {
      calls,
      relayUs: ((procStats(relay).cpuMs - before.relay) * 1000) / calls,
      childUs: ((procStats(child).cpuMs - before.child) * 1000) / calls,
      benchUs: (bench.user + bench.system) / calls,
    };
  };
  // Warmed alike, then measured.
  await run(() => call(session, 'echo', { text: 't' }), 0.5);
  await run(() => call(floor.session, 'echo', { text: 't' }), 0.5);
  const viaBridge: Awaited<ReturnType<typeof segment>>[] = [];
  const viaFloor: Awaited<ReturnType<typeof segment>>[] = [];
  for (let r = 0; r < rounds; r++) {
    viaBridge.push(await segment(pid, childPid, () => call(session, 'echo', { text: 't' })));
    viaFloor.push(await segment(floor.pid, floorChild, () => call(floor.session, 'echo', { text: 't' })));
  }
  await floor.stop();
  const viaDirect = (await run(() => direct.callTool({ name: 'echo', arguments: { text: 't' } }), seconds)) / seconds;
  const total = (segments: typeof viaBridge, key: 'calls' | 'relayUs' | 'childUs' | 'benchUs') =>
    key === 'calls'
      ? segments.reduce((sum, s) => sum + s.calls, 0)
      : segments.reduce((sum, s) => sum + s[key] * s.calls, 0) / segments.reduce((sum, s) => sum + s.calls, 0);
  const bridgeRate = total(viaBridge, 'calls') / seconds;
  const floorRate = total(viaFloor, 'calls') / seconds;
  rows.push({
    scenario: '2 throughput',
    metric: `${inFlight} in flight, ${seconds} s`,
    bridge: bridgeRate,
    baseline: viaDirect,
    unit: 'calls/s',
    target: '≥ 70% of direct',
    pass: bridgeRate >= 0.7 * viaDirect,
    note: `${((bridgeRate / viaDirect) * 100).toFixed(0)}% of direct`,
  });
  const floorPerCall = total(viaFloor, 'relayUs');
  const floorChildPerCall = total(viaFloor, 'childUs');
  rows.push({
    scenario: '2 throughput',
    metric: 'floor: CPU per call of a Node pipe that parses nothing (its child)',
    bridge: floorPerCall,
    baseline: floorChildPerCall,
    unit: 'µs',
    target: '',
    pass: null,
    note: `${(floorPerCall / floorChildPerCall).toFixed(2)}× its child; ${Math.round(floorRate)} calls/s, ${((floorRate / viaDirect) * 100).toFixed(0)}% of direct`,
  });
  // Where the time goes: CPU of each process while calls went through the bridge.
  const bridgePerCall = total(viaBridge, 'relayUs');
  const childPerCall = total(viaBridge, 'childUs');
  rows.push({
    scenario: '2 throughput',
    metric: 'bridge CPU per call (bench client, child)',
    bridge: bridgePerCall,
    baseline: childPerCall,
    unit: 'µs',
    target: '≤ 0.7× the child',
    pass: bridgePerCall <= 0.7 * childPerCall,
    note: `client ${total(viaBridge, 'benchUs').toFixed(0)} µs, child ${childPerCall.toFixed(0)} µs; bridge busy ${((bridgePerCall * bridgeRate) / 10_000).toFixed(0)}% of a core`,
  });
  figures.set('cpu_vs_child', medianOfRounds(viaBridge.map((s) => s.relayUs / s.childUs)));
  figures.set('cpu_vs_node_floor', medianOfRounds(viaBridge.map((s, r) => s.relayUs / (viaFloor[r] as (typeof viaFloor)[number]).relayUs)));
  floorsSeen.set('cpu_vs_child', `bridge ${bridgePerCall.toFixed(1)} µs per call, its child ${childPerCall.toFixed(1)} µs`);
  floorsSeen.set('cpu_vs_node_floor', `bridge ${bridgePerCall.toFixed(1)} µs per call, the Node pipe ${floorPerCall.toFixed(1)} µs`);
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
  const right = await hammer(5000);
  // What the bridge keeps after the calls (history, compiled code), not the garbage of the last of them:
  // V8's memory reducer lets that go some 8-10 s after a burst, so the lowest reading over 15 s.
  let early = procStats(pid).rssMb;
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    early = Math.min(early, procStats(pid).rssMb);
  }
  rows.push({
    scenario: '6 memory',
    metric: 'bridge RSS idle, 10 servers',
    bridge: idle,
    baseline: null,
    unit: 'MB',
    target: '',
    pass: null,
  });
  // The floors: a Node process holding the socket and 10 servers on stdio that parses nothing, then
  // the same with the SDK's Client and Server loaded (the bridge needs both, for the handshake and lists).
  for (const [what, env] of [
    ['a Node pipe with 10 servers, parsing nothing', {}],
    ['the same with the MCP SDK client and server loaded', { PIPE_LOAD_SDK: '1' }],
  ] as const) {
    const floor = await startNodePipe(xiaozhi, { PIPE_SERVERS: '10', ...env });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const floorRss = procStats(floor.pid).rssMb;
    const withSdk = 'PIPE_LOAD_SDK' in env;
    rows.push({
      scenario: '6 memory',
      metric: `floor: RSS idle of ${what}`,
      bridge: idle,
      baseline: floorRss,
      unit: 'MB',
      target: withSdk ? '≤ floor + 8 MB' : '',
      pass: withSdk ? idle <= floorRss + 8 : null,
      note: `bridge vs floor: +${(idle - floorRss).toFixed(1)} MB`,
    });
    if (withSdk) {
      figures.set('idle_rss_over_floor', idle - floorRss);
      floorsSeen.set(
        'idle_rss_over_floor',
        `the Node pipe with the SDK loaded holds ${floorRss.toFixed(1)} MB, the bridge ${idle.toFixed(1)} MB`,
      );
    }
    await floor.stop();
  }
  rows.push({
    scenario: '6 memory',
    metric: 'bridge RSS, highest during 5,000 calls and 2 s after',
    bridge: right,
    baseline: idle,
    unit: 'MB',
    target: '',
    pass: null,
    note: `+${(((right - idle) / idle) * 100).toFixed(0)}% over idle`,
  });
  rows.push({
    scenario: '6 memory',
    metric: 'bridge RSS after 5,000 calls, settled (lowest over 15 s)',
    bridge: early,
    baseline: idle,
    unit: 'MB',
    target: '≤ +15% over idle',
    pass: early <= idle * 1.15,
    note: `+${(((early - idle) / idle) * 100).toFixed(0)}% over idle`,
  });
  figures.set('rss_growth_5000', ((early - idle) / idle) * 100);
  figures.set('rss_peak_growth_5000', ((right - idle) / idle) * 100);
  floorsSeen.set(
    'rss_growth_5000',
    `idle ${idle.toFixed(1)} MB, after 5,000 calls ${early.toFixed(1)} MB settled (${right.toFixed(1)} MB right after)`,
  );
  // The gate stops here: the working set and the leak rows take longer than a check should.
  if (check) {
    await closeAll(bridge, xiaozhi);
    return;
  }
  const warm = await hammer(quick ? 10_000 : 50_000);
  const after = await hammer(calls);
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

/** The scenario that measures each gated figure: a figure that fails the gate is measured once more by it. */
const GATED_SCENARIOS: Record<string, string> = {
  latency_vs_node_floor: 'latency',
  latency_vs_python_pipe: 'latency',
  cpu_vs_child: 'throughput',
  cpu_vs_node_floor: 'throughput',
  idle_rss_over_floor: 'memory',
  rss_growth_5000: 'memory',
  rss_peak_growth_5000: 'memory',
  call_vs_node_floor: 'latency',
  local_call_vs_direct: 'local',
  local_cpu_vs_child: 'local',
  local_added: 'local',
};

function printFigures(verdicts: Map<string, ReturnType<typeof judge>[number]>): void {
  console.log('\nfigure                  value      recorded   allowed    target        gate');
  for (const [key, value] of figures) {
    const spec = FIGURES[key];
    const verdict = verdicts.get(key);
    const target = spec?.target === undefined ? '' : `≤ ${formatValue(key, spec.target)} ${value <= spec.target ? 'yes' : 'NO'}`;
    const gate = !verdict ? '' : verdict.reference === undefined ? 'nothing recorded' : verdict.regressed ? 'REGRESSED' : 'ok';
    console.log(
      [
        key.padEnd(22),
        formatValue(key, value).padEnd(10),
        (verdict?.reference === undefined ? '' : formatValue(key, verdict.reference)).padEnd(10),
        (verdict?.allowed === undefined ? '' : formatValue(key, verdict.allowed)).padEnd(10),
        target.padEnd(13),
        gate,
      ].join(' '),
    );
  }
}

function git(...args: string[]): string {
  const result = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : '';
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
  const chosen = only ?? (check ? [...new Set(Object.values(GATED_SCENARIOS))] : scenarios.map(([name]) => name));
  const loadStart = os.loadavg();
  const started = performance.now();
  const runScenario = async (name: string, run: () => Promise<void>) => {
    const t = performance.now();
    process.stdout.write(`running ${name}… `);
    await run();
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s (load ${os.loadavg()[0]?.toFixed(1)})`);
  };
  for (const [name, run] of scenarios) if (chosen.includes(name)) await runScenario(name, run);
  printTable();

  const history = fs.existsSync(HISTORY) ? parseHistory(fs.readFileSync(HISTORY, 'utf8'), (line) => console.log(line)) : [];
  let verdicts = judge(figures, history, quick);
  let regressed = verdicts.filter((v) => v.regressed);
  if (check && regressed.length > 0) {
    // A second opinion before failing: the scenarios of the figures that regressed run once more and
    // each figure keeps the better of its two values. A real regression fails both times; a burst of
    // load from another process on this shared machine rarely spoils two runs of the same figure.
    const first = new Map(regressed.map((v) => [v.key, v.value]));
    const again = [...new Set(regressed.map((v) => GATED_SCENARIOS[v.key] as string))];
    console.log(`\n${regressed.map((v) => v.key).join(', ')} over the allowed ratio: running ${again.join(', ')} once more`);
    const kept = new Map(figures);
    for (const [name, run] of scenarios) if (again.includes(name)) await runScenario(name, run);
    for (const [key, value] of kept) figures.set(key, Math.min(value, figures.get(key) ?? value));
    verdicts = judge(figures, history, quick);
    regressed = verdicts.filter((v) => v.regressed);
    for (const v of regressed)
      floorsSeen.set(v.key, `${floorsSeen.get(v.key) ?? ''} (first run: ${formatValue(v.key, first.get(v.key) ?? NaN)})`);
  }
  printFigures(new Map(verdicts.map((v) => [v.key, v])));
  const loadEnd = os.loadavg();
  console.log(
    `load average ${loadStart.map((l) => l.toFixed(1)).join(' ')} at the start, ${loadEnd.map((l) => l.toFixed(1)).join(' ')} at the end (${os.cpus().length} cores)`,
  );

  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version };
  const results = {
    date: new Date().toISOString(),
    machine: { ...machine, platform: process.platform },
    quick,
    totalSeconds: (performance.now() - started) / 1000,
    load: { start: loadStart, end: loadEnd },
    figures: Object.fromEntries(figures),
    rows,
  };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten to bench/results/latest.json (${results.totalSeconds.toFixed(0)} s)`);
  if (record) {
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results') !== '';
    const line: HistoryLine = {
      date: results.date,
      commit: `${git('rev-parse', '--short', 'HEAD')}${dirty ? '+changes' : ''}`,
      quick,
      load: { start: loadStart.map((l) => Number(l.toFixed(2))), end: loadEnd.map((l) => Number(l.toFixed(2))) },
      machine,
      figures: Object.fromEntries([...figures].map(([key, value]) => [key, Number(value.toFixed(4))])),
    };
    fs.appendFileSync(HISTORY, `${JSON.stringify(line)}\n`);
    console.log('recorded in bench/results/history.jsonl');
  }
  fs.rmSync(work, { recursive: true, force: true });
  if (check) {
    if (regressed.length > 0) {
      console.error(`\nbench --check: ${regressed.length} figure${regressed.length > 1 ? 's' : ''} regressed`);
      for (const v of regressed) console.error(regressionMessage(v, floorsSeen.get(v.key)));
      process.exit(1);
    }
    const judged = verdicts.filter((v) => v.reference !== undefined).length;
    console.log(
      judged > 0
        ? `\nbench --check: ${judged} figures within their allowed ratios`
        : `\nbench --check: nothing recorded for ${quick ? 'quick' : 'full'} runs in bench/results/history.jsonl yet (run with --record)`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
