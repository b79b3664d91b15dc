import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Arguments shown in a confirmation request, and how long each value may be: enough to know what is meant. */
const SHOWN_ARGUMENTS = 3;
const SHOWN_VALUE_CHARS = 40;

/** The action as the user will hear it: the tool's title (or name) and its main arguments. */
export function describeAction(tool: Tool, name: string, args: Record<string, unknown>): string {
  const title = actionTitle(tool, name);
  const shown = shownArguments(args).map(({ name: key, value }) => `${key}: ${value}`);
  return shown.length > 0 ? `${title} (${shown.join(', ')})` : title;
}

/** The tool's title, or its name. */
export function actionTitle(tool: Tool, name: string): string {
  return tool.annotations?.title ?? tool.title ?? name;
}

/** Argument names whose values are secrets (api_key, accessToken, password, Authorization…): never shown or said. */
const SECRET_ARGUMENT = /(api[_-]?key|^key$|[_-]key$|secret|token|passw(or)?d|^pwd$|authori[sz]ation|cookie|credential)/i;
const HIDDEN_VALUE = '***';

/** The first few arguments, each value cut short, secrets hidden: what the user is shown and told. */
export function shownArguments(args: Record<string, unknown>): { name: string; value: string }[] {
  return Object.entries(args)
    .slice(0, SHOWN_ARGUMENTS)
    .map(([key, value]) => {
      if (SECRET_ARGUMENT.test(key)) return { name: key, value: HIDDEN_VALUE };
      const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
      return { name: key, value: text.length > SHOWN_VALUE_CHARS ? `${text.slice(0, SHOWN_VALUE_CHARS - 1)}…` : text };
    });
}
