/**
 * How much memory a catalogue refresh keeps when the registry (or a proxy in its place) answers
 * with a huge page. Run with `node bench/registry-memory.mjs [MB]` (default 600). The page is served
 * by a child process, so only the reader's memory is measured here. Not part of npm test.
 */
import { fork } from 'node:child_process';

import { fetchRegistry } from '../src/main/core/catalogue/registry-catalogue';
import { rssMb, settle } from './memory-probe';

const megabytes = Number(process.argv[2] ?? 600);

const SERVER = `
const http = require('node:http');
const total = Number(process.argv[1]) * 1024 * 1024;
const chunk = Buffer.alloc(1024 * 1024, 0x20);
http.createServer((req, res) => {
  let sent = 0;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"servers":[');
  const pump = () => {
    while (sent < total && !res.destroyed) { sent += chunk.length; if (!res.write(chunk)) return void res.once('drain', pump); }
    if (sent >= total) res.end(']}');
  };
  pump();
}).listen(0, '127.0.0.1', function () { process.send(this.address().port); });
`;

async function main(): Promise<void> {
  const server = fork('-e', [SERVER, String(megabytes)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] } as never);
  const port = await new Promise<number>((resolve) => server.once('message', (m) => resolve(Number(m))));
  await settle();
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
  let outcome: string;
  try {
    const entries = await fetchRegistry({ baseUrl: `http://127.0.0.1:${port}`, maxPages: 1, timeoutMs: 120_000 });
    outcome = `read ${entries.length} entries`;
  } catch (error) {
    outcome = `refused: ${(error as Error).message}`;
  }
  clearInterval(sampler);
  await settle();
  const after = rssMb();
  server.kill();
  if (!(globalThis as { gc?: () => void }).gc) console.log('(run with --expose-gc for steadier numbers)');
  console.log(`${megabytes} MB page: ${outcome}`);
  console.log(
    `RSS before ${before.toFixed(0)} MB, highest ${peak.toFixed(0)} MB, kept after ${after.toFixed(0)} MB (+${(after - before).toFixed(0)} MB)`,
  );
}

void main();
