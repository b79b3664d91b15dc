import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Language } from '../../../../shared/i18n/translate';
import { translate } from '../../../../shared/i18n/translate';
import { errorResult, textResult } from '../result-shaping';
import type { BuiltinTool } from './builtin-tools';
import { normaliseCode, type Confirmations } from './confirmations';

export const CONFIRM_TOOL = 'confirm_action';

export interface ConfirmToolOptions {
  confirmations: Confirmations;
  language: () => Language;
  /** Whether any tool asks first now: otherwise the tool is not listed (it would only take a place). */
  wanted: () => boolean;
  /** A background task as the model is told of it (the window allowed a held call: it runs as one). */
  taskText?: (id: string, owner: string) => string | undefined;
  /** Servers' yes/no questions put by voice: the same one-time codes say yes to them. */
  questions?: { takeCode(code: string, session: string | undefined): { task: string } | undefined };
}

/**
 * The built-in tool that runs a call held for confirmation: the model calls it with the code the
 * held call's answer gave, once the user said yes. The code works once, on the session that asked,
 * for the tool and arguments that were asked, within about a minute.
 */
export function confirmTool(options: ConfirmToolOptions): BuiltinTool {
  const { confirmations, language } = options;
  return {
    // Read at every rebuild of the catalog: the model reads it in the voice language.
    get tool(): Tool {
      return {
        name: CONFIRM_TOOL,
        description: translate(language(), 'voice.tool.confirm'),
        inputSchema: {
          type: 'object',
          // No type: a model may pass the code as a number (3897); the digits are read from whatever it is.
          properties: { code: { description: translate(language(), 'voice.tool.confirmCode') } },
          required: ['code'],
        },
        annotations: { title: translate(language(), 'voice.tool.confirmTitle') },
      };
    },
    listed: options.wanted,
    run: async (args, context) => {
      const code = normaliseCode(args.code);
      const question = options.questions?.takeCode(code, context.session);
      if (question) return textResult(translate(language(), 'voice.elicit.accepted', { id: question.task }));
      const taken = confirmations.take(code, context.session, context.task);
      if ('refused' in taken) return errorResult(translate(language(), `voice.confirm.${taken.refused}`));
      // Answered in the window already: said so, with the task's state when it runs as one.
      if ('denied' in taken) return textResult(translate(language(), 'voice.confirm.denied', { action: taken.denied }));
      if ('withdrawn' in taken) return errorResult(translate(language(), 'voice.confirm.withdrawn', { action: taken.withdrawn }));
      if ('confirmed' in taken) {
        const { action, task, owner } = taken.confirmed;
        const state = task !== undefined ? options.taskText?.(task, owner) : undefined;
        return textResult(`${translate(language(), 'voice.confirm.already', { action })}${state ? ` ${state}` : ''}`);
      }
      if ('allowed' in taken) {
        const { task, owner } = taken.allowed;
        const state = task !== undefined ? options.taskText?.(task, owner) : undefined;
        return textResult(`${translate(language(), 'voice.confirm.allowedInWindow')}${state ? ` ${state}` : ''}`);
      }
      // Its task (if it goes on as one) is the held tool's, not "confirm action": the user hears which action runs.
      context.nameTask?.(taken.held.tool);
      // The confirm call's own signal, progress and task: cancelling it (cancel_task, the endpoint) stops the server's call.
      const answer = await taken.held.run(`${context.caller} (confirmed by voice, code ${taken.held.code})`, {
        signal: context.signal,
        onProgress: context.onProgress,
        background: context.task,
      });
      return answer.result;
    },
  };
}
