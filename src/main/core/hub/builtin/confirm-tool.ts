import type { Tool } from '@modelcontextprotocol/sdk/types.js';

import type { Language, MessageKey } from '../../../../shared/i18n/translate';
import { sentences, translate } from '../../../../shared/i18n/translate';
import { errorResult, textResult } from '../result-shaping';
import { unknownArgumentsText } from './builtin-arguments';
import type { BuiltinTool } from './builtin-tools';
import type { Confirmations, Unconfirmed } from './confirmations';

export const CONFIRM_TOOL = 'confirm_action';

/** A server's yes/no question put by voice, waiting in a session for the person's PIN. */
export interface VoiceQuestion {
  askedAt: number;
  /** The question's task (the call goes on as one). */
  task: string;
  /** Says yes to it. */
  accept(): void;
}

export interface ConfirmToolOptions {
  confirmations: Confirmations;
  language: () => Language;
  /** Whether any tool asks first now: otherwise the tool is not listed (it would only take a place). */
  wanted: () => boolean;
  /** A background task as the model is told of it (the window allowed a held call: it runs as one). */
  taskText?: (id: string, owner: string) => string | undefined;
  /** Servers' yes/no questions put by voice: the same PIN says yes to them. */
  questions?: {
    waiting(session: string): VoiceQuestion | undefined;
    /** Too many wrong PINs: the session's questions are declined too. */
    cancelSession(session: string): void;
  };
}

/**
 * The built-in tool that confirms, with the PIN the person said, the newest action waiting in its
 * voice session (a held call, or a server's yes/no question). The PIN is never in anything the
 * model reads, so a model cannot confirm by itself; a wrong PIN leaves the action waiting.
 */
export function confirmTool(options: ConfirmToolOptions): BuiltinTool {
  const { confirmations, language } = options;
  const say = (key: MessageKey, params?: Record<string, string | number>) => translate(language(), key, params);
  const withTask = (text: string, task: string | undefined, owner: string) =>
    textResult(sentences(language(), text, task !== undefined ? options.taskText?.(task, owner) : undefined));
  /** What the model hears when the PIN ran nothing. */
  const unconfirmed = (taken: Unconfirmed) => {
    if ('denied' in taken) return textResult(say('voice.confirm.denied', { action: taken.denied }));
    if ('withdrawn' in taken) return errorResult(say('voice.confirm.withdrawn', { action: taken.withdrawn }));
    if ('confirmed' in taken)
      return withTask(say('voice.confirm.already', { action: taken.confirmed.action }), taken.confirmed.task, taken.confirmed.owner);
    if ('allowed' in taken) return withTask(say('voice.confirm.allowedInWindow'), taken.allowed.task, taken.allowed.owner);
    if (taken.refused === 'wrong' || taken.refused === 'windowOnly')
      return errorResult(say(`voice.confirm.${taken.refused}`, { action: taken.action }));
    if (taken.refused === 'paused') return errorResult(say('voice.confirm.paused', { minutes: taken.minutes }));
    return errorResult(say(`voice.confirm.${taken.refused}`));
  };
  return {
    // Read at every rebuild of the catalog: the model reads it in the voice language.
    get tool(): Tool {
      return {
        name: CONFIRM_TOOL,
        description: say('voice.tool.confirm'),
        inputSchema: {
          type: 'object',
          // A string: what the person said ("四八二一", "4821"); a model that passes the number is read the same.
          properties: { pin: { type: 'string', description: say('voice.tool.confirmPin') } },
          required: ['pin'],
        },
        annotations: { title: say('voice.tool.confirmTitle') },
      };
    },
    listed: options.wanted,
    run: async (args, context) => {
      const unknown = unknownArgumentsText(language(), CONFIRM_TOOL, args, ['pin']);
      if (unknown) return errorResult(unknown);
      const session = context.session ?? '';
      const held = confirmations.waiting(session);
      const question = options.questions?.waiting(session);
      if (!held && !question) return unconfirmed(confirmations.nothingWaiting(session));
      const action = held && (!question || held.askedAt >= question.askedAt) ? held : undefined;
      const verdict = confirmations.checkPin(session, args.pin);
      if (verdict === 'paused') return unconfirmed({ refused: 'paused', minutes: confirmations.pausedMinutes(session) });
      if (verdict === 'tooManyWrong') {
        options.questions?.cancelSession(session);
        return unconfirmed({ refused: 'tooManyWrong' });
      }
      if (verdict === 'wrong') return unconfirmed({ refused: 'wrong', action: action?.action ?? say('voice.confirm.theQuestion') });
      if (!action && question) {
        question.accept();
        return textResult(say('voice.elicit.accepted', { id: question.task }));
      }
      const taken = action ? confirmations.take(action, context.task) : undefined;
      if (!taken) return unconfirmed(confirmations.nothingWaiting(session));
      // Its task (if it goes on as one) is the held tool's, not "confirm action": the user hears which action runs.
      context.nameTask?.(taken.tool);
      // The confirm call's own signal, progress and task: cancelling it (cancel_task, the endpoint) stops the server's call.
      const answer = await taken.run('voice', {
        signal: context.signal,
        onProgress: context.onProgress,
        background: context.task,
      });
      return answer.result;
    },
  };
}
