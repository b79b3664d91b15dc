"""The baseline for npm run bench: a pipe that works the way xiaozhi's official mcp_pipe.py works.

Written from mcp_pipe.py in github.com/78/mcp-calculator (version 0.2.0, last changed in 2987da5a,
August 2025), the script xiaozhi's docs point users to; what it does per message is kept, the
configuration, reconnecting and signal handling are left out:
- the server is a blocking `subprocess.Popen` in text mode (stdin, stdout and stderr piped);
- a WebSocket message is written to the server's stdin with a newline and flushed, from the event
  loop itself (a blocking write);
- each line of the server's stdout is read in a worker thread (`asyncio.to_thread(readline)`) and
  sent as it is, newline included; stderr is read the same way and copied to our stderr;
- each direction formats a debug line of the message's head that the INFO log level then drops;
- `websockets.connect(url)` with its default options.
mcp_pipe.py asks for websockets >= 15; Debian's python3-websockets is 10.4, whose connect() is
the older implementation of the same API.

Usage: python3 python-pipe.py URL CMD ARG... It serves one connection and exits when it ends.
"""
import asyncio
import logging
import subprocess
import sys

import websockets

logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
log = logging.getLogger("PIPE")


async def to_server(ws, process) -> None:
    while True:
        message = await ws.recv()
        log.debug(f"<< {message[:120]}...")
        if isinstance(message, bytes):
            message = message.decode("utf-8")
        process.stdin.write(message + "\n")
        process.stdin.flush()


async def to_endpoint(process, ws) -> None:
    while True:
        line = await asyncio.to_thread(process.stdout.readline)
        if not line:
            return
        log.debug(f">> {line[:120]}...")
        await ws.send(line)


async def server_stderr(process) -> None:
    while True:
        line = await asyncio.to_thread(process.stderr.readline)
        if not line:
            return
        sys.stderr.write(line)
        sys.stderr.flush()


async def main() -> None:
    url, command = sys.argv[1], sys.argv[2:]
    async with websockets.connect(url) as ws:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, encoding="utf-8", text=True
        )
        try:
            await asyncio.gather(to_server(ws, process), to_endpoint(process, ws), server_stderr(process))
        except websockets.exceptions.ConnectionClosed:
            pass
        finally:
            process.terminate()
            process.wait(timeout=5)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
