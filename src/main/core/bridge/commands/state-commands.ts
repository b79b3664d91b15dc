import type { stateCommands } from '../../../../shared/bridge-api';
import type { Settings } from '../../../../shared/settings';
import type { BridgeState } from '../../../../shared/status';
import type { ToolHub } from '../../hub/tool-hub';
import { redactSettings } from '../../secrets/bridge-secrets';
import type { CommandHandlers } from './command-handlers';

/** What the state commands need of the bridge. */
export interface StateCommandContext {
  state(): BridgeState;
  settings(): Settings;
  hub: Pick<ToolHub, 'catalog'>;
  start(): void;
  stop(): Promise<void>;
}

/** The bridge as a whole: its state, its settings (secrets masked), the catalog, start and stop. */
export function stateCommandHandlers(c: StateCommandContext): CommandHandlers<typeof stateCommands> {
  return {
    getState: async () => c.state(),
    getSettings: async () => redactSettings(c.settings()),
    getCatalog: async () => c.hub.catalog(),
    start: async () => c.start(),
    stop: async () => c.stop(),
  };
}
