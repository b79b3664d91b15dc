import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

import type { Language } from '../../../shared/i18n/translate';
import { translate } from '../../../shared/i18n/translate';
import { unknownArgumentsText } from '../hub/builtin/builtin-arguments';
import { errorResult } from '../hub/result-shaping';
import type { BackgroundCalls } from './background-calls';
import { spokenTool, taskListText, taskText } from './voice-texts';

/** A tool the bridge serves itself: its definition and its answer (never a server's). */
export interface TaskTool {
  tool: Tool;
  /** Whether it is served now: only an endpoint's calls go on in the background. */
  listed(): boolean;
  /** `owner`: whose tasks the caller sees (its endpoint's id); absent, its name. */
  run(args: Record<string, unknown>, context: { caller: string; owner?: string | undefined }): CallToolResult;
}

export const TASK_STATUS_TOOL = 'task_status';
export const CANCEL_TASK_TOOL = 'cancel_task';

/** A task id argument, described in the voice language. */
const idProperty = (language: Language) => ({ type: 'string', description: translate(language, 'voice.tool.taskId') });

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/** Arguments other than `task`, said rather than ignored (an error result, in both places xiaozhi's clients read). */
function unknownArguments(language: Language, tool: string, args: Record<string, unknown>): CallToolResult | undefined {
  const said = unknownArgumentsText(language, tool, args, ['task']);
  return said === undefined ? undefined : errorResult(said);
}

/**
 * The two built-in tools of long calls: "is it done?" (with an id: its state and result; without:
 * what runs and what finished) and "cancel it". Each caller sees only the tasks it started.
 */
export function taskTools(
  calls: BackgroundCalls,
  language: () => Language,
  /** True while there is an endpoint to serve (a bridge serving only local clients needs neither tool). */
  listed: () => boolean,
  now: () => number = Date.now,
): TaskTool[] {
  return [
    {
      // Read at every rebuild of the catalog: the model reads it in the voice language.
      get tool(): Tool {
        return {
          name: TASK_STATUS_TOOL,
          description: translate(language(), 'voice.tool.taskStatus'),
          inputSchema: { type: 'object', properties: { task: idProperty(language()) } },
          annotations: { readOnlyHint: true },
        };
      },
      listed,
      run(args, { caller, owner = caller }) {
        const unknown = unknownArguments(language(), TASK_STATUS_TOOL, args);
        if (unknown) return unknown;
        const id = typeof args.task === 'string' && args.task.trim() !== '' ? args.task : undefined;
        if (id === undefined) return text(taskListText(language(), calls.list(owner)));
        const task = calls.find(id, owner);
        if (!task) return text(`${translate(language(), 'voice.task.unknown', { id })} ${taskListText(language(), calls.list(owner))}`);
        return text(taskText(language(), task, now()));
      },
    },
    {
      get tool(): Tool {
        return {
          name: CANCEL_TASK_TOOL,
          description: translate(language(), 'voice.task.cancelDescription'),
          inputSchema: { type: 'object', properties: { task: idProperty(language()) }, required: ['task'] },
          annotations: { destructiveHint: false },
        };
      },
      listed,
      run(args, { caller, owner = caller }) {
        const unknown = unknownArguments(language(), CANCEL_TASK_TOOL, args);
        if (unknown) return unknown;
        const id = typeof args.task === 'string' ? args.task : '';
        const task = calls.cancel(id, owner);
        if (!task) return text(`${translate(language(), 'voice.task.unknown', { id })} ${taskListText(language(), calls.list(owner))}`);
        const params = { id: task.id ?? id, tool: spokenTool(task.tool) };
        // The state read before the cancel: a running call is stopping now, and says so when asked.
        return text(translate(language(), task.state === 'running' ? 'voice.task.cancelling' : 'voice.task.alreadyEnded', params));
      },
    },
  ];
}
