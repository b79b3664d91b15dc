import type { elicitationCommands } from '../../../../shared/bridge-api';
import type { Elicitations } from '../../hub/elicitations';
import type { CommandHandlers } from './command-handlers';

/** A server's questions during a call, as the window lists and answers them. */
export function elicitationCommandHandlers(c: { elicitations: Elicitations }): CommandHandlers<typeof elicitationCommands> {
  return {
    getElicitations: async () => c.elicitations.list(),
    answerElicitation: async ({ key, action, content }) => c.elicitations.answer(key, action, content),
  };
}
