import { CONNECT_OPTIONS, connectCommand as relay } from '../../main/core/local-server/connect-client';
import type { Command } from '../command';

export const connectCommand: Command = {
  name: 'connect',
  summary: 'cli.connect.summary',
  usage: ['connect [--client ID] [--url URL [--token-file FILE] [--force-url]]'],
  options: CONNECT_OPTIONS,
  details: 'cli.connect.details',
  run: (args, ctx) => relay(args.options, { t: ctx.t }),
};
