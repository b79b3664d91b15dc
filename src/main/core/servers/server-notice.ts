import type { LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';

/**
 * What a running server announces besides its tools, relayed to the local clients whose set
 * includes it: a list changed, a subscribed resource changed, a log message; `availability` is
 * ours (it came up or went down: what it offers appeared or vanished).
 */
export type ServerNotice =
  | { kind: 'resources' }
  | { kind: 'prompts' }
  | { kind: 'availability' }
  | { kind: 'updated'; uri: string }
  | { kind: 'log'; params: LoggingMessageNotification['params'] };
