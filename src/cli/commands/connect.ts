import { tokenOptions, type Command } from '../command';
import { connectCommand as relay } from '../connect-command';

export const connectCommand: Command = {
  name: 'connect',
  summary: "a stdio MCP server relaying to the running app's local MCP server (Claude Desktop and other stdio-only clients)",
  usage: ['connect [--client ID] [--url URL [--token-file FILE] [--force-url]]'],
  options: [
    { name: 'client', value: 'ID', help: 'the client this is (claude-desktop…): it gets the tool set chosen for it' },
    { name: 'url', value: 'URL', help: "the app's local MCP server on this machine (default: read from the running app's state file)" },
    {
      name: 'force-url',
      help: "send the token to --url even when the running app's state file says it listens at another address",
    },
    ...tokenOptions(
      'token',
      'a file holding its bearer token (default: from the state file; with --url, XIAOZHI_TRAY_TOKEN)',
      'XIAOZHI_TRAY_TOKEN',
    ),
  ],
  details: 'stdout carries MCP messages only; when the app is not running, one line on stderr says so and it exits 1.',
  run: (args) => relay(args.options),
};
