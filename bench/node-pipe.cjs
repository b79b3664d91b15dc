// The floor for any relay written in Node: a WebSocket <-> stdio pipe that parses nothing.
// node-pipe.cjs URL COMMAND [ARGS...]; PIPE_SERVERS=N starts N copies of the server (the first
// is piped) and PIPE_LOAD_SDK=1 loads the MCP SDK's client and server, for the memory floor.
// The same young-generation setting as bin/xiaozhi-tray.js, so the floors compare like with like.
require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
const { spawn } = require('node:child_process');
const WebSocket = require('ws');

const [url, command, ...args] = process.argv.slice(2);
const children = Array.from({ length: Number(process.env.PIPE_SERVERS ?? 1) }, () =>
  spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] }),
);
if (process.env.PIPE_LOAD_SDK === '1') {
  require('@modelcontextprotocol/sdk/client/index.js');
  require('@modelcontextprotocol/sdk/server/index.js');
}
const ws = new WebSocket(url, { perMessageDeflate: false });
const [piped, ...others] = children;
for (const child of others) child.stdout.resume();
let buffered = '';
piped.stdout.setEncoding('utf8');
piped.stdout.on('data', (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    if (ws.readyState === WebSocket.OPEN) ws.send(line);
  }
});
ws.on('message', (data) => piped.stdin.write(`${data}\n`));
const stop = () => {
  for (const child of children) child.kill();
  process.exit(0);
};
process.on('SIGTERM', stop);
ws.on('close', stop);
