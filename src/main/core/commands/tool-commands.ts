import type { toolCommands } from '../../../shared/bridge-api';
import { DEFAULT_TOOL_SET } from '../../../shared/settings';
import { withServerTools, withToolSetting } from '../hub/tool-set-edits';
import type { ServerFleet } from '../server-fleet';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** What the tool switch commands need of the bridge. */
export interface ToolCommandContext extends SettingsAccess {
  /** A server's switch covers the tools it has now. */
  servers: Pick<ServerFleet, 'require'>;
}

/** A tool's switch and description in a tool set (the default set when none is named). */
export function toolCommandHandlers(c: ToolCommandContext): CommandHandlers<typeof toolCommands> {
  return {
    setToolEnabled: async (input) =>
      c.commit(withToolSetting(c.settings(), input.toolSet ?? DEFAULT_TOOL_SET, input.server, input.tool, { enabled: input.enabled })),
    setServerToolsEnabled: async (input) => {
      const tools = c.servers.require(input.server).currentTools.map((tool) => tool.name);
      c.commit(withServerTools(c.settings(), input.toolSet ?? DEFAULT_TOOL_SET, input.server, tools, input.enabled));
    },
    setToolDescription: async (input) =>
      c.commit(
        withToolSetting(c.settings(), input.toolSet ?? DEFAULT_TOOL_SET, input.server, input.tool, { description: input.description }),
      ),
  };
}
