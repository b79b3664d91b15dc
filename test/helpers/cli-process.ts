import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve(__dirname, '../../bin/xiaozhi-tray.js');

export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

/** Runs the built CLI (MCP_ENDPOINT cleared) and records its output; `track` collects it for cleanup. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, track: ChildProcess[]): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, MCP_ENDPOINT: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  track.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}
