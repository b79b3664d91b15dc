"""The baseline for npm run bench: a pipe built the way xiaozhi's official mcp_pipe.py is built.

One asyncio task copies each WebSocket message to the server's stdin as a line, another copies each
line of its stdout back as a message; nothing is parsed. Usage: python3 python-pipe.py URL CMD ARG...
It serves one connection and exits when the connection or the server ends.
"""
import asyncio
import sys

import websockets


async def main() -> None:
    url, command = sys.argv[1], sys.argv[2:]
    process = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=16 * 1024 * 1024
    )
    async with websockets.connect(url, max_size=None, compression=None) as ws:

        async def to_server() -> None:
            async for message in ws:
                text = message if isinstance(message, str) else message.decode("utf-8")
                process.stdin.write((text + "\n").encode("utf-8"))
                await process.stdin.drain()

        async def to_endpoint() -> None:
            while True:
                line = await process.stdout.readline()
                if not line:
                    return
                await ws.send(line.decode("utf-8").rstrip("\n"))

        done, pending = await asyncio.wait(
            [asyncio.create_task(to_server()), asyncio.create_task(to_endpoint())], return_when=asyncio.FIRST_COMPLETED
        )
        for task in pending:
            task.cancel()
    process.kill()


if __name__ == "__main__":
    asyncio.run(main())
