import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { RuntimeStore } from '../../../../src/main/core/runtimes/runtime-store';
import { type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { type PypiStandIn, startPypiStandIn, wheelStandIn } from '../../../helpers/pypi-stand-in';
import { fetchFailure, pinsOf } from '../../../helpers/runtime-mirror';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

/**
 * uv where GitHub cannot be reached (mainland China): its wheel, found on a PyPI mirror's "simple"
 * index, checked against the pinned SHA-256, its two programs taken out.
 */

const tempDir = tempDirs('xt-uv-wheel-');
let index: PypiStandIn | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  await index?.close();
  harness = undefined;
  index = undefined;
});

const wheel = wheelStandIn();
const pins = pinsOf(wheel);

describe.skipIf(process.platform === 'win32')("uv's wheel from a PyPI index", () => {
  it('is found on the project page (PEP 503), checked, and its programs unpacked', async () => {
    index = await startPypiStandIn([{ name: wheel.source.archive, data: wheel.archive }]);
    const dir = tempDir();
    const urls = { uvIndex: index.index };
    const store = new RuntimeStore({ dir, sources: () => urls, pins });
    const progress: (number | undefined)[] = [];
    const ready = await store.ensure('uv', (p) => progress.push(p));
    expect(ready).toEqual({ binDir: path.join(dir, wheel.source.folder), version: wheel.source.version });
    expect(fs.readdirSync(ready.binDir).sort()).toEqual(['uv', 'uvx']);
    expect(execFileSync(path.join(ready.binDir, 'uv'), ['--version'], { encoding: 'utf8' })).toBe(
      `uv ${wheel.source.version} (wheel stand-in)\n`,
    );
    expect(progress.at(-1)).toBe(100);
    expect(index.requests.map((r) => r.path)).toEqual(['/simple/uv/', `/packages/ab/cd/${wheel.source.archive}`]);
    // PEP 691's negotiation, asking for the HTML form only (its JSON would be parsed into objects).
    expect(index.requests[0]!.accept).toBe('application/vnd.pypi.simple.v1+html, text/html;q=0.01');
    expect(fs.readdirSync(path.join(dir, 'downloads'))).toEqual([]);
  });

  it('says so when an index answers JSON although HTML was asked for', async () => {
    index = await startPypiStandIn([{ name: wheel.source.archive, data: wheel.archive }], { form: 'json' });
    const urls = { uvIndex: index.index };
    const refused = await fetchFailure(new RuntimeStore({ dir: tempDir(), sources: () => urls, pins }).ensure('uv', () => undefined));
    expect(refused.problem.params.reason).toBe(
      `${index.index}uv/ answered JSON (application/vnd.pypi.simple.v1+json), not the HTML page asked for`,
    );
  });

  it("the index's own hash is not what counts: a mirror's own wheel with a matching #sha256 is refused against the app's pin", async () => {
    const forged = wheelStandIn({ extra: [{ name: 'uv/forged.py', data: 'pwned' }] });
    index = await startPypiStandIn([{ name: forged.source.archive, data: forged.archive }]);
    const dir = tempDir();
    const urls = { uvIndex: index.index };
    const refused = await fetchFailure(new RuntimeStore({ dir, sources: () => urls, pins }).ensure('uv', () => undefined));
    expect(refused.problem.code).toBe('server.runtimeMismatch');
    expect(fs.readdirSync(dir)).toEqual(['downloads']);
    expect(fs.readdirSync(path.join(dir, 'downloads'))).toEqual([]);
  });

  it("says so when the index does not list this OS's wheel", async () => {
    index = await startPypiStandIn([{ name: 'uv-0.12.0-py3-none-any.whl', data: wheel.archive }]);
    const urls = { uvIndex: index.index };
    const missing = await fetchFailure(new RuntimeStore({ dir: tempDir(), sources: () => urls, pins }).ensure('uv', () => undefined));
    expect(missing.problem.params.reason).toBe(`${index.index}uv/ does not list ${wheel.source.archive}`);
  });

  it('refuses a wheel address that is not https (nor on this machine)', async () => {
    index = await startPypiStandIn([], {
      page: (res) =>
        res
          .writeHead(200, { 'Content-Type': 'text/html' })
          .end(`<a href="http://files.example.com/uv/${wheel.source.archive}#sha256=00">${wheel.source.archive}</a>`),
    });
    const urls = { uvIndex: index.index };
    const refused = await fetchFailure(new RuntimeStore({ dir: tempDir(), sources: () => urls, pins }).ensure('uv', () => undefined));
    expect(refused.problem.params.reason).toBe(
      `${index.index}uv/ gives ${wheel.source.archive} an address that is not https: http://files.example.com`,
    );
  });

  it('reads a hostile page of endless unclosed anchors in bounded time', async () => {
    // "<a<a<a…" (4 MB): a backtracking pattern would take hours over it; the scan passes each character a few times.
    const page = '<a '.repeat(1_400_000);
    index = await startPypiStandIn([], { page: (res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page) });
    const urls = { uvIndex: index.index };
    const missing = await fetchFailure(new RuntimeStore({ dir: tempDir(), sources: () => urls, pins }).ensure('uv', () => undefined));
    expect(missing.problem.params.reason).toMatch(/does not list/);
  });

  it("runs a `uvx` server with the wheel's uv, fetched from the index set in the download sources", async () => {
    index = await startPypiStandIn([{ name: wheel.source.archive, data: wheel.archive }]);
    harness = makeBridge(
      {
        mirrors: { preset: 'custom', uvIndex: index.index },
        servers: [{ name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'], env: { FIXTURE_NAME: 'time' } }],
      },
      undefined,
      { env: { ...process.env, PATH: tempDir() }, runtimesDir: tempDir(), runtimePins: pins },
    );
    harness.bridge.start();
    const server = () => harness!.bridge.state().servers[0]!;
    await waitFor(() => server().state === 'running', 30_000, "the uvx server running on the wheel's uv");
    expect(server().runtime).toEqual({ name: 'uv', from: 'app', version: '0.12.0' });
  });
});
