// Our bridge as the client of the MCP conformance suite's client scenarios
// (`conformance client --command "node test/conformance/client-adapter.mjs"`, run by scripts/conformance/run.mjs).
//
// The suite starts a test server per scenario and runs this with its URL as the last argument and the
// scenario's name in MCP_CONFORMANCE_SCENARIO (and, for some, MCP_CONFORMANCE_CONTEXT). We write a config
// with that URL as a streamable-HTTP server and run the built headless app's `call` (out/cli/index.js):
// the real bridge initializes, lists the tools as xiaozhi does and calls the scenario's tool, then exits.
// Scenarios without a tool only list.
//
// OAuth (the auth/* scenarios) goes through the app's own sign-in: `login SERVER` first, with
// XIAOZHI_TRAY_OAUTH_OPEN=fetch (the page fetched with plain GETs and its redirects followed back to the
// loopback listener, no browser: the suite's authorization server approves at once), then `call` with the
// tokens it kept in the shared state folder. When that call fails after a sign-in that worked (a wider
// scope asked for), `login` and `call` once more, as a user told to sign in again would. A client id and
// secret the scenario gives (pre-registration) go into the server's `oauth` settings. On a build without
// sign-in, `login` is an unknown command and the scenarios fail at `call`, as they should.
//
//   node test/conformance/client-adapter.mjs SERVER_URL
//   CONFORMANCE_APP_ROOT=DIR   run DIR/out/cli/index.js instead of this checkout's (another branch's build)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = process.env.CONFORMANCE_APP_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = 'conformance';

/** The tool each scenario's test server offers, and its arguments. */
const TOOL_OF = {
  tools_call: { name: 'add_numbers', args: { a: 5, b: 3 } },
  'sse-retry': { name: 'test_reconnection', args: {} },
  'elicitation-sep1034-client-defaults': { name: 'test_client_elicitation_defaults', args: {} },
};
const toolFor = (scenario) => TOOL_OF[scenario] ?? (scenario.startsWith('auth/') ? { name: 'test-tool', args: {} } : undefined);

/** The server entry; a pre-registered client's id and secret when the scenario gives them. */
function serverEntry(serverUrl) {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
  const oauth = context.client_id
    ? { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) }
    : undefined;
  return { name: SERVER, transport: 'streamable-http', url: serverUrl, ...(oauth ? { oauth } : {}) };
}

function runScenario(serverUrl, scenario) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xiaozhi-tray-conformance-client-'));
  try {
    const config = path.join(dir, 'tray.json');
    fs.writeFileSync(config, JSON.stringify({ servers: [serverEntry(serverUrl)] }), { mode: 0o600 });
    const app = (args) =>
      spawnSync(process.execPath, [path.join(ROOT, 'out/cli/index.js'), ...args], {
        cwd: dir,
        stdio: 'inherit',
        env: { ...process.env, XIAOZHI_TRAY_STATE_DIR: path.join(dir, 'state'), XIAOZHI_TRAY_OAUTH_OPEN: 'fetch', BROWSER: '' },
      }).status ?? 1;
    const tool = toolFor(scenario);
    const call = () =>
      app(
        tool
          ? ['call', '--config', config, tool.name, '--args', JSON.stringify(tool.args), '--json']
          : ['tools', '--config', config, '--json'],
      );
    if (!scenario.startsWith('auth/')) return call();
    const signedIn = app(['login', SERVER, '--config', config]) === 0;
    const first = call();
    // A call refused for want of scope is told "sign in again"; the user would, once (scope step-up).
    if (first === 0 || !signedIn) return first;
    app(['login', SERVER, '--config', config]);
    return call();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const serverUrl = process.argv.slice(2).at(-1);
if (!serverUrl) {
  process.stderr.write('usage: client-adapter.mjs SERVER_URL (MCP_CONFORMANCE_SCENARIO names the scenario)\n');
  process.exitCode = 2;
} else process.exitCode = runScenario(serverUrl, process.env.MCP_CONFORMANCE_SCENARIO ?? '');
