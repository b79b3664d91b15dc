import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { type RuntimeSource, runtimeSource } from '../../src/main/core/runtimes/runtime-sources';
import { FIXTURE } from './bridge-harness';
import { sha256 } from './runtime-mirror';
import { type ZipMember, zipOf } from './zip-writer';

/**
 * uv's wheel for this OS and CPU as PyPI has it, made of stand-in programs: a zip laid out by the
 * wheel spec ("Binary distribution format", packaging.python.org/en/latest/specifications/
 * binary-distribution-format/): `uv-<ver>.dist-info/{METADATA,WHEEL,RECORD}`, and the programs in
 * `uv-<ver>.data/scripts/`, which an installer puts in the scripts folder (uv's wheels hold `uv`
 * and `uvx` there). `extra` adds members (a hostile wheel's); `scripts` replaces the two programs.
 */
export function wheelStandIn(options: { extra?: ZipMember[]; scripts?: ZipMember[] } = {}): { source: RuntimeSource; archive: Buffer } {
  const source = runtimeSource('uv', { uvIndex: 'https://pypi.example/simple/' })!;
  const { version } = source;
  const data = `uv-${version}.data/scripts/`;
  const info = `uv-${version}.dist-info/`;
  const scripts = options.scripts ?? [
    { name: `${data}uv`, data: `#!/bin/sh\necho "uv ${version} (wheel stand-in)"\n`, mode: 0o755 },
    { name: `${data}uvx`, data: `#!/bin/sh\nexec "${process.execPath}" "${FIXTURE}"\n`, mode: 0o755 },
  ];
  const archive = zipOf([
    { name: 'uv/__init__.py', data: '' },
    ...scripts,
    ...(options.extra ?? []),
    { name: `${info}METADATA`, data: `Metadata-Version: 2.4\nName: uv\nVersion: ${version}\n` },
    { name: `${info}WHEEL`, data: 'Wheel-Version: 1.0\nGenerator: stand-in\nRoot-Is-Purelib: false\nTag: py3-none-any\n' },
    { name: `${info}RECORD`, data: '' },
  ]);
  return { source, archive };
}

export interface PypiStandIn {
  /** The index's base, as a user gives it (…/simple/). */
  index: string;
  /** Paths asked for, with the Accept header. */
  requests: { path: string; accept: string | undefined }[];
  close(): Promise<void>;
}

/**
 * A PyPI "simple" index on 127.0.0.1 with one project, uv, holding the given files. Its project
 * page is HTML by PEP 503 (an anchor per file, its text the file name, its href relative to the
 * page with a `#sha256=` fragment) or JSON by PEP 691 (`application/vnd.pypi.simple.v1+json`:
 * meta.api-version, name, files[] with filename, url and hashes), chosen by the Accept header as
 * PEP 691 says, or forced with `form`. Files are under /packages/ as a mirror keeps them. `hash`
 * sets what the index claims a file's SHA-256 is (its own by default).
 */
export async function startPypiStandIn(
  files: { name: string; data: Buffer; hash?: string }[],
  options: { form?: 'html' | 'json'; page?: (res: http.ServerResponse) => void } = {},
): Promise<PypiStandIn> {
  const requests: PypiStandIn['requests'] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push({ path: url, accept: req.headers.accept });
    if (url === '/simple/uv') return void res.writeHead(301, { Location: '/simple/uv/' }).end();
    if (url === '/simple/uv/') {
      if (options.page) return options.page(res);
      const wantsJson = options.form ? options.form === 'json' : /application\/vnd\.pypi\.simple\.v1\+json/.test(req.headers.accept ?? '');
      if (wantsJson) {
        const body = {
          meta: { 'api-version': '1.1' },
          name: 'uv',
          files: files.map((f) => ({
            filename: f.name,
            url: `../../packages/ab/cd/${f.name}`,
            hashes: { sha256: f.hash ?? sha256(f.data) },
          })),
        };
        return void res.writeHead(200, { 'Content-Type': 'application/vnd.pypi.simple.v1+json' }).end(JSON.stringify(body));
      }
      const links = files.map((f) => `<a href="../../packages/ab/cd/${f.name}#sha256=${f.hash ?? sha256(f.data)}">${f.name}</a><br/>`);
      const html = `<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.0"><title>Links for uv</title></head><body><h1>Links for uv</h1>${links.join('\n')}</body></html>`;
      return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(html);
    }
    const file = files.find((f) => url === `/packages/ab/cd/${f.name}`);
    if (!file) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': file.data.length }).end(file.data);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    index: `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
