import type { callCommands } from '../../../../shared/bridge-api';
import { resultText } from '../../hub/result-shaping';
import type { ToolHub } from '../../hub/tool-hub';
import type { ActivityLog } from '../../logs/activity-log';
import type { CallHistory } from '../../logs/call-history';
import type { LogBook } from '../../logs/log-book';
import { redactProblem } from '../../secrets/bridge-secrets';
import type { EndpointTools } from '../../serving/endpoint-catalogs';
import type { CommandHandlers } from './command-handlers';

/** What the call commands need of the bridge. */
export interface CallCommandContext {
  hub: Pick<ToolHub, 'responseBytes'>;
  /** The default set as a consumer sees it: a call of a tool whose server is still starting waits for it. */
  defaultTools(): Pick<EndpointTools, 'call'>;
  logBook: Pick<LogBook, 'redact' | 'entries'>;
  history: Pick<CallHistory, 'list' | 'countsByTool'>;
  activity: Pick<ActivityLog, 'list'>;
}

/** A call from the window, exactly as xiaozhi would make it, and what the bridge remembers of calls. */
export function callCommandHandlers(c: CallCommandContext): CommandHandlers<typeof callCommands> {
  return {
    callTool: async (input) => {
      const started = performance.now();
      const { result, problem } = await c.defaultTools().call(input.name, input.arguments ?? {}, { caller: 'ui' });
      return {
        // What the window shows is redacted like everything else (the endpoint gets the tool's text as is).
        text: c.logBook.redact(resultText(result)),
        isError: result.isError === true,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        bytes: c.hub.responseBytes(result),
        ...(problem ? { error: redactProblem(problem, (text) => c.logBook.redact(text)) } : {}),
      };
    },
    getLogs: async (input) => c.logBook.entries(input.limit),
    getHistory: async () => c.history.list(),
    getToolCounts: async () => c.history.countsByTool(),
    getActivity: async () => c.activity.list(),
  };
}
