import type { taskCommands } from '../../../../shared/bridge-api';
import type { BackgroundCalls } from '../../long-calls/background-calls';
import type { CommandHandlers } from './command-handlers';

/** The window's list of long calls and its cancel button. */
export function taskCommandHandlers(c: {
  calls: Pick<BackgroundCalls, 'shownList' | 'cancelByKey'>;
}): CommandHandlers<typeof taskCommands> {
  return {
    getTasks: async () => c.calls.shownList(),
    cancelTask: async (input) => {
      c.calls.cancelByKey(input.key);
    },
  };
}
