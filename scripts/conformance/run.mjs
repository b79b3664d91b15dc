// The official MCP conformance suite (@modelcontextprotocol/conformance), measured on our hub.
//
// Server side: the suite's server scenarios run against test/fixtures/conformance-server.mjs (a) directly
// and (b) through our local MCP server (the built headless app with the fixture configured behind it),
// and the two are compared scenario by scenario. Client side: the suite's client scenarios run
// test/conformance/client-adapter.mjs, which answers them with our bridge as the MCP client.
// What is expected to fail today is stated in scripts/conformance/expectations.json; the run exits 1 when
// the hub passes fewer checks than the direct run outside that list, when a listed scenario passes (so the
// list shrinks as the work lands), or when the fixture itself fails a check directly.
//
//   npm run conformance                       both sides (builds out/ first)
//   node scripts/conformance/run.mjs [--server-only | --client-only] [--server-url URL] [--keep]
//     --server-url URL   measure another server instead of the fixture (reported, never judged)
//     --app DIR          run DIR's built app (DIR/out/cli/index.js, e.g. another branch's checkout) instead of this one's
//     --only A,B         only these scenarios (server or client names), for a quick look
//     --keep             keep the suite's result folders (checks.json per scenario) and say where
import fs from 'node:fs';
import path from 'node:path';

import { startBearerRelay } from './bearer-relay.mjs';
import { ensureSuite, ROOT } from './install.mjs';
import { scratch, start, startHub, waitForOutput } from './processes.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const valueOf = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const expectations = JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts/conformance/expectations.json'), 'utf8'));
const say = (line = '') => process.stdout.write(`${line}\n`);
// The app measured: this checkout's build, or another's (--app DIR); the client adapter reads the same variable.
if (valueOf('--app')) process.env.CONFORMANCE_APP_ROOT = path.resolve(valueOf('--app'));
const APP = process.env.CONFORMANCE_APP_ROOT ?? ROOT;
const ONLY = valueOf('--only')?.split(',');

/** Every checks.json under `dir`, by scenario: the suite names each folder `<scenario>-<ISO time>`. */
function readResults(dir, prefix) {
  const results = new Map();
  const walk = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'checks.json') {
        const name = path
          .relative(dir, folder)
          .split(path.sep)
          .join('/')
          .replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
        const checks = JSON.parse(fs.readFileSync(full, 'utf8'));
        results.set(name.startsWith(prefix) ? name.slice(prefix.length) : name, tally(checks));
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return results;
}

function tally(checks) {
  const count = (status) => checks.filter((c) => c.status === status).length;
  const failed = checks.filter((c) => c.status === 'FAILURE');
  return {
    passed: count('SUCCESS'),
    failed: failed.length,
    warnings: count('WARNING'),
    why: failed.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`.slice(0, 160)),
  };
}

/** Runs the suite's CLI (under Node.js 22) and waits; its own exit code is not ours (we compare below). */
async function suite(tool, suiteArgs, timeoutMs) {
  const run = start(tool.node, [tool.cli, ...suiteArgs], { cwd: ROOT });
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  await run.exited;
  clearTimeout(timer);
  return run.output();
}

async function serverScenarios(tool, url, outDir) {
  const chosen = ONLY ?? expectations.server.scenarios;
  if (chosen === 'all') await suite(tool, ['server', '--url', url, '--suite', 'all', '-o', outDir], 300_000);
  else for (const scenario of chosen) await suite(tool, ['server', '--url', url, '--scenario', scenario, '-o', outDir], 120_000);
  return readResults(outDir, 'server-');
}

const cell = (r) => (r ? `${r.passed}/${r.passed + r.failed}${r.warnings ? ` (${r.warnings} warn)` : ''}` : '-');
const sum = (results) => [...results.values()].reduce((total, r) => total + r.passed, 0);
const checks = (results) => [...results.values()].reduce((total, r) => total + r.passed + r.failed, 0);

async function measureServer(tool, work) {
  const given = valueOf('--server-url');
  const fixture = given ? undefined : start(process.execPath, [path.join(ROOT, 'test/fixtures/conformance-server.mjs')], { cwd: ROOT });
  let hub;
  let relay;
  try {
    const serverUrl = given ?? (await waitForOutput(fixture, /listening (\S+)/, 20_000, 'the fixture'))[1];
    const started = Date.now();
    const direct = await serverScenarios(tool, serverUrl, path.join(work, 'direct'));
    hub = await startHub(APP, serverUrl);
    relay = await startBearerRelay(hub.url, hub.token);
    const through = await serverScenarios(tool, relay.url, path.join(work, 'through-hub'));
    say(`\nServer scenarios: ${given ?? 'test/fixtures/conformance-server.mjs'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    say(`${'scenario'.padEnd(34)}${'direct'.padEnd(16)}through the hub`);
    const expectedToFail = new Set(expectations.server.failingThroughHub);
    const problems = [];
    for (const name of new Set([...direct.keys(), ...through.keys()])) {
      const d = direct.get(name);
      const h = through.get(name);
      const short = (h?.passed ?? 0) < (d?.passed ?? 0) || (h?.failed ?? 0) > (d?.failed ?? 0);
      let note = '';
      if (d?.failed) note = 'fails directly';
      else if (short) note = expectedToFail.has(name) ? 'expected' : 'REGRESSION';
      else if (expectedToFail.has(name)) note = 'now passes: remove it from expectations.json';
      say(`${name.padEnd(34)}${cell(d).padEnd(16)}${cell(h).padEnd(16)}${note}`);
      if (short && !expectedToFail.has(name)) for (const why of h?.why ?? ['no result']) say(`    ${why}`);
      if (note === 'fails directly') for (const why of d.why) say(`    ${why}`);
      if (note && note !== 'expected') problems.push(`${name}: ${note}`);
    }
    say(`${'total checks passed'.padEnd(34)}${`${sum(direct)}/${checks(direct)}`.padEnd(16)}${sum(through)}/${checks(through)}`);
    // Another server (--server-url) is measured, not judged: its own failures are not ours to fix.
    return given ? [] : problems;
  } finally {
    await relay?.close();
    await hub?.stop();
    await fixture?.stop();
  }
}

async function measureClient(tool, work) {
  const { failing } = expectations.client;
  const scenarios = ONLY ? expectations.client.scenarios.filter((name) => ONLY.includes(name)) : expectations.client.scenarios;
  const adapter = `${process.execPath} ${path.relative(ROOT, path.join(ROOT, 'test/conformance/client-adapter.mjs'))}`;
  const started = Date.now();
  for (const scenario of scenarios) {
    await suite(
      tool,
      ['client', '--command', adapter, '--scenario', scenario, '--timeout', '30000', '-o', path.join(work, 'client')],
      60_000,
    );
  }
  const results = readResults(path.join(work, 'client'), '');
  say(`\nClient scenarios: our bridge as the client (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const expectedToFail = new Set(failing);
  const problems = [];
  let passing = 0;
  for (const scenario of scenarios) {
    const r = results.get(scenario);
    const passes = r !== undefined && r.passed > 0 && r.failed === 0;
    if (passes) passing++;
    let note = '';
    if (!passes && !expectedToFail.has(scenario)) note = 'REGRESSION';
    else if (!passes) note = 'expected';
    else if (expectedToFail.has(scenario)) note = 'now passes: remove it from expectations.json';
    say(`${scenario.padEnd(44)}${(passes ? 'pass' : 'fail').padEnd(6)}${cell(r).padEnd(16)}${note}`);
    if (note === 'REGRESSION') for (const why of r?.why ?? ['no result']) say(`    ${why}`);
    if (note && note !== 'expected') problems.push(`${scenario}: ${note}`);
  }
  say(`${'scenarios passing'.padEnd(44)}${passing}/${scenarios.length}`);
  return problems;
}

const tool = ensureSuite();
const work = scratch('xiaozhi-tray-conformance-results-');
const problems = [];
try {
  // Side by side: the server side mostly waits (a request the hub does not pass on waits out the suite's
  // 60 s timeout), the client side mostly starts the app; each prints its table once it has it all.
  const sides = [];
  if (!flag('--client-only')) sides.push(measureServer(tool, work.dir));
  if (!flag('--server-only') && !valueOf('--server-url')) sides.push(measureClient(tool, work.dir));
  for (const found of await Promise.all(sides)) problems.push(...found);
} finally {
  if (flag('--keep')) say(`\nResults (checks.json per scenario): ${work.dir}`);
  else work.remove();
}
if (problems.length > 0) {
  say(`\nconformance: ${problems.length} unexpected result(s):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
say('\nconformance: as expected');
