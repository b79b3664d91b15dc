// Our bridge as the client of the MCP conformance suite's client scenarios
// (`conformance client --command "node test/conformance/client-adapter.mjs"`, run by scripts/conformance/run.mjs).
//
// The suite starts a test server per scenario and runs this with its URL as the last argument and the
// scenario's name in MCP_CONFORMANCE_SCENARIO. We write a config with that URL as a streamable-HTTP server
// and run the built headless app's `call` (out/cli/index.js): the real bridge initializes, lists the tools
// as xiaozhi does and calls the scenario's tool, then exits. Scenarios without a tool only list.
//
// OAuth (the auth/* scenarios): when the bridge must send the user to an authorization page, it is meant to
// run the program named in XIAOZHI_TRAY_OAUTH_OPEN with the page's URL as its one argument, instead of
// opening a browser. We name follow-authorization.mjs, which delivers the code to the bridge's loopback
// callback by following the suite's auto-approving authorization server with plain GETs.
//
//   node test/conformance/client-adapter.mjs SERVER_URL
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLLOW = path.join(path.dirname(fileURLToPath(import.meta.url)), 'follow-authorization.mjs');

/** The tool each scenario's test server offers, and its arguments. */
const TOOL_OF = {
  tools_call: { name: 'add_numbers', args: { a: 5, b: 3 } },
  'sse-retry': { name: 'test_reconnection', args: {} },
  'elicitation-sep1034-client-defaults': { name: 'test_client_elicitation_defaults', args: {} },
};
const toolFor = (scenario) => TOOL_OF[scenario] ?? (scenario.startsWith('auth/') ? { name: 'test-tool', args: {} } : undefined);

function runScenario(serverUrl, scenario) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xiaozhi-tray-conformance-client-'));
  try {
    const config = path.join(dir, 'tray.json');
    fs.writeFileSync(config, JSON.stringify({ servers: [{ name: 'conformance', transport: 'streamable-http', url: serverUrl }] }), {
      mode: 0o600,
    });
    const tool = toolFor(scenario);
    const command = tool
      ? ['call', '--config', config, tool.name, '--args', JSON.stringify(tool.args), '--json']
      : ['tools', '--config', config, '--json'];
    const result = spawnSync(process.execPath, [path.join(ROOT, 'out/cli/index.js'), ...command], {
      cwd: dir,
      stdio: 'inherit',
      env: {
        ...process.env,
        XIAOZHI_TRAY_STATE_DIR: path.join(dir, 'state'),
        XIAOZHI_TRAY_OAUTH_OPEN: FOLLOW,
      },
    });
    return result.status ?? 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const serverUrl = process.argv.slice(2).at(-1);
if (!serverUrl) {
  process.stderr.write('usage: client-adapter.mjs SERVER_URL (MCP_CONFORMANCE_SCENARIO names the scenario)\n');
  process.exitCode = 2;
} else process.exitCode = runScenario(serverUrl, process.env.MCP_CONFORMANCE_SCENARIO ?? '');
