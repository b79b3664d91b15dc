import { type Problem, problem } from '../../../shared/problem';
import type { SetEntry } from './set-entry';
import type { ToolIdentity, ToolSource, ViewContext } from './tool-set-view';

/**
 * The first step of a call: the tool a name stands for in this set. A session's name stands for
 * the tool it was served (`boundTo`), even if the name now means another one; then it is unknown.
 */
export function entryFor(byName: ReadonlyMap<string, SetEntry>, name: string, boundTo: ToolIdentity | undefined): SetEntry | undefined {
  const found = byName.get(name);
  return !boundTo || (found?.server === boundTo.server && found.original.name === boundTo.tool) ? found : undefined;
}

/** Why a tool of the set cannot be called by that name now (unknown, or switched off); undefined when it can. */
export function unavailable(entry: SetEntry | undefined, name: string): Problem | undefined {
  if (!entry) return problem('call.unknownTool', { tool: name });
  if (!entry.enabled) return problem('call.toolOff', { tool: name });
  return undefined;
}

/** The configured server that runs the tool (a server removed since the list was built: none). */
export function sourceOf(context: ViewContext, server: string): ToolSource | undefined {
  return context.source(server);
}

/** What is wrong with the arguments, checked against the tool's schema (unless its server's checks are off). */
export function badArguments(context: ViewContext, entry: SetEntry, name: string, args: Record<string, unknown>): Problem | undefined {
  if (context.argumentChecksOff()?.has(entry.server)) return undefined;
  const invalid = context.argumentCheck.check(
    { name, server: entry.server, inputSchema: entry.original.inputSchema as Record<string, unknown> },
    args,
    context.language(),
  );
  return invalid ? problem('call.badArguments', { tool: name, detail: invalid }) : undefined;
}
