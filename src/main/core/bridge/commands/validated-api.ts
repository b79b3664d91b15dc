import { type BridgeApi, type BridgeCommands, bridgeCommands, type CommandName } from '../../../../shared/bridge-api';
import { forbiddenKeyPaths, formatKeyPath } from '../../../../shared/forbidden-keys';
import { firstIssue } from '../../../../shared/zod-issue';
import type { CommandHandlers } from './command-handlers';

/**
 * The `BridgeApi` over the handlers: every payload is validated here, once, whichever carrier
 * (IPC, WebSocket, in-process) brought it, and every error leaves redacted.
 */
export function validatedApi(handlers: CommandHandlers<BridgeCommands>, redact: (text: string) => string, on: BridgeApi['on']): BridgeApi {
  const api = {} as Record<string, unknown>;
  for (const name of Object.keys(bridgeCommands) as CommandName[]) {
    const schema = bridgeCommands[name].input;
    api[name] = async (input: unknown) => {
      const refused = forbiddenKeyPaths(input, 1)[0];
      if (refused) throw new Error(`Invalid input for "${name}" at ${formatKeyPath(refused)}: this key is not allowed`);
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        const issue = firstIssue(parsed.error);
        throw new Error(redact(`Invalid input for "${name}"${issue.path ? ` at ${issue.path}` : ''}: ${issue.message}`));
      }
      try {
        return await (handlers[name] as (i: unknown) => Promise<unknown>)(parsed.data);
      } catch (error) {
        // Errors reach the window and the CLI: the same redaction as everything else.
        throw new Error(redact(error instanceof Error ? error.message : String(error)));
      }
    };
  }
  api.on = on;
  return api as BridgeApi;
}
