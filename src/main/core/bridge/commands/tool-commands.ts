import type { toolCommands } from '../../../../shared/bridge-api';
import type { ServerSettings, Settings, ToolPolicy } from '../../../../shared/settings';
import { DEFAULT_TOOL_SET } from '../../../../shared/settings';
import type { ToolSource } from '../../hub/tool-hub';
import { withServerTools, withToolSetting } from '../../hub/tool-set-edits';
import type { CommandHandlers, SettingsAccess } from './command-handlers';

/** The settings with a tool's (or, without a tool, a server's) voice policy set, or cleared with null. */
export function withToolPolicy(settings: Settings, server: string, tool: string | undefined, policy: ToolPolicy | null): Settings {
  const found = settings.servers.find((s) => s.name === server);
  if (!found) throw new Error(`No server is called "${server}".`);
  let next: ServerSettings;
  if (tool === undefined) {
    const { toolPolicy: _old, ...rest } = found;
    next = (policy === null ? rest : { ...rest, toolPolicy: policy }) as ServerSettings;
  } else {
    const { [tool]: _old, ...others } = found.toolPolicies ?? {};
    const policies = policy === null ? others : { ...others, [tool]: policy };
    const { toolPolicies: _all, ...rest } = found;
    next = (Object.keys(policies).length > 0 ? { ...rest, toolPolicies: policies } : rest) as ServerSettings;
  }
  return { ...settings, servers: settings.servers.map((s) => (s === found ? next : s)) };
}

/** What the tool switch commands need of the bridge. */
export interface ToolCommandContext extends SettingsAccess {
  /** A server's switch covers the tools it has now (the bridge's own tools included); throws for a name none has. */
  toolsOf(server: string): Pick<ToolSource, 'currentTools'>;
}

/** A tool's switch and description in a tool set (the default set when none is named). */
export function toolCommandHandlers(c: ToolCommandContext): CommandHandlers<typeof toolCommands> {
  return {
    setToolEnabled: async (input) =>
      c.commit(withToolSetting(c.settings(), input.toolSet ?? DEFAULT_TOOL_SET, input.server, input.tool, { enabled: input.enabled })),
    setServerToolsEnabled: async (input) => {
      const tools = c.toolsOf(input.server).currentTools.map((tool) => tool.name);
      c.commit(withServerTools(c.settings(), input.toolSet ?? DEFAULT_TOOL_SET, input.server, tools, input.enabled));
    },
    setToolDescription: async (input) =>
      c.commit(
        withToolSetting(c.settings(), input.toolSet ?? DEFAULT_TOOL_SET, input.server, input.tool, { description: input.description }),
      ),
    setToolPolicy: async ({ server, tool, policy }) => c.commit(withToolPolicy(c.settings(), server, tool, policy)),
  };
}
