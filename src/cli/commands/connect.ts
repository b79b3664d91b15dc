import type { Command } from '../command';
import { connectCommand as relay } from '../connect-command';

export const connectCommand: Command = {
  name: 'connect',
  summary: 'cli.connect.summary',
  usage: ['connect [--client ID] [--url URL [--token-file FILE] [--force-url]]'],
  options: [
    { name: 'client', value: 'ID', help: 'cli.connect.opt.client' },
    { name: 'url', value: 'URL', help: 'cli.connect.opt.url' },
    {
      name: 'force-url',
      help: 'cli.connect.opt.force-url',
    },
    {
      name: 'token-file',
      value: 'FILE',
      help: 'cli.connect.opt.token-file',
    },
    {
      name: 'token',
      value: 'TOKEN',
      help: 'cli.connect.opt.token',
    },
  ],
  details: 'cli.connect.details',
  run: (args, ctx) => relay(args.options, { t: ctx.t }),
};
