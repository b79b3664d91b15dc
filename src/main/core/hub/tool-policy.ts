import type { Tool } from '@modelcontextprotocol/sdk/types.js';

import { own } from '../../../shared/own';
import type { ServerSettings, ToolPolicy } from '../../../shared/settings';

/**
 * Whether a tool called by voice runs at once, is held until the user confirms it, or is refused.
 * The tool's own setting wins, then its server's; otherwise a tool that says it destroys something
 * (`annotations.destructiveHint: true`) asks first and every other tool runs.
 */
export function toolPolicy(server: Pick<ServerSettings, 'toolPolicy' | 'toolPolicies'> | undefined, tool: Tool): ToolPolicy {
  // Own entries only: a tool called `constructor` or `toString` must not read Object's members as its policy.
  return own(server?.toolPolicies, tool.name) ?? server?.toolPolicy ?? (tool.annotations?.destructiveHint === true ? 'ask' : 'run');
}
