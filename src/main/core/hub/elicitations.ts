import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

import type { ElicitField, ElicitValue, PendingElicitation } from '../../../shared/elicitations';
import { type Language, sentences, translate } from '../../../shared/i18n/translate';
import { nameRecord } from '../../../shared/own';
import type { VoiceQuestion } from './builtin/confirm-tool';
import { pinHider, type PinPlace } from './builtin/confirmation-pin';
import type { VoiceCalls } from './builtin/voice-calls';

/** A server's message as a sentence the model can say back (ending with its stop). */
function spoken(message: string): string {
  const trimmed = message.trim();
  return /[.!?。！？]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Questions waiting at once: a server that asks again and again is answered `cancel` past this. */
const MAX_PENDING = 16;
/** Fields a form may have: more is not a question to put to someone by voice or in a small card. */
const MAX_FIELDS = 20;
/**
 * Choices of one field, and the length of one: a list past these is no question a person answers
 * (and cut short, an answer would not be one of the server's own values), so nobody is asked.
 */
export const MAX_CHOICES = 100;
export const MAX_CHOICE_CHARS = 200;

const TYPE_WORDS: Record<ElicitField['type'], string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'yes or no',
};

interface Entry {
  shown: PendingElicitation;
  resolve: (result: ElicitResult) => void;
  timer: NodeJS.Timeout;
  /** Put to the caller by voice: its session (where the person's PIN says yes), the call's task. */
  voice?: { session: string; task: string; field?: string };
}

/** What a yes/no question needs to be put to the caller by voice. */
export interface VoiceQuestions {
  calls: VoiceCalls;
  language: () => Language;
  /** The person's PIN is needed: made now if there was none; where they find it while nobody has shown it to them. */
  pinFor: () => PinPlace | undefined;
  /** How long a question put by voice waits (the caller was answered: as long as a held call does). */
  waitMs: number;
  /** The person's PIN, hidden in the question the model reads (a question may quote a file that holds it). */
  pin?: () => string | undefined;
}

/**
 * Servers' questions during a call (MCP `elicitation/create`, form mode), shown in the window until
 * the user answers or declines. Unanswered, a question is answered after `waitMs` (the caller's
 * patience less a margin), so the tool can still answer xiaozhi in time. Unanswered, or one nobody
 * can be asked (a URL-mode question, a form with fields this window cannot show), it is answered
 * `cancel` (no choice was made: "declined" would tell the tool a person said no), and a call by voice
 * that asked it is told so.
 */
export class Elicitations {
  private readonly pending = new Map<number, Entry>();
  private readonly listeners = new Set<() => void>();
  private nextKey = 1;

  constructor(
    private readonly waitMs: (server: string) => number,
    /** What the window is shown passes through here, as everything that leaves the engine. */
    private readonly redact: (text: string) => string = (text) => text,
    private readonly voice?: VoiceQuestions,
    private readonly now: () => number = Date.now,
  ) {}

  ask(server: string, params: ElicitRequest['params'], signal?: AbortSignal): Promise<ElicitResult> {
    const fields = params.mode === 'url' || !('requestedSchema' in params) ? undefined : formFields(params.requestedSchema);
    if (!fields || this.pending.size >= MAX_PENDING) {
      this.voice?.calls.note(server, 'unaskable');
      return Promise.resolve({ action: 'cancel' });
    }
    const key = this.nextKey++;
    const askedAt = this.now();
    const message = params.message.slice(0, 2000);
    const voice = this.byVoice(server, message, fields);
    const wait = voice ? (this.voice?.waitMs ?? 0) : Math.max(0, this.waitMs(server));
    return new Promise<ElicitResult>((resolve) => {
      const timer = setTimeout(() => this.settle(key, { action: 'cancel' }), wait);
      timer.unref();
      const shown: PendingElicitation = { key, server, message: this.redact(message), fields, askedAt, expiresAt: askedAt + wait };
      this.pending.set(key, { shown, resolve, timer, ...(voice ? { voice } : {}) });
      // The server gave up (its call was cancelled, the server stopped): nothing waits any more.
      signal?.addEventListener('abort', () => this.settle(key, { action: 'cancel' }), { once: true });
      this.changed();
    });
  }

  /** The newest question put by voice in this session, waiting for the person's PIN. */
  waiting(session: string): VoiceQuestion | undefined {
    let newest: [number, Entry] | undefined;
    for (const [key, entry] of this.pending) if (entry.voice?.session === session) newest = [key, entry];
    if (!newest) return undefined;
    const [key, entry] = newest;
    const voice = entry.voice as NonNullable<Entry['voice']>;
    return {
      askedAt: entry.shown.askedAt,
      task: voice.task,
      accept: () => void this.settle(key, { action: 'accept', content: voice.field !== undefined ? { [voice.field]: true } : {} }),
    };
  }

  /** Too many wrong PINs in a session: its questions put by voice are answered as nobody said yes. */
  cancelSession(session: string): void {
    for (const [key, entry] of [...this.pending]) if (entry.voice?.session === session) this.settle(key, { action: 'cancel' });
  }

  /**
   * A yes/no question (no field, or one yes/no field) during the one call by voice in flight to the
   * server, whose caller was served the confirm tool, is put to that caller: it is answered now
   * ("the tool asks…; if yes, ask for the PIN and call confirm_action with it") and the call goes on as a task.
   */
  private byVoice(server: string, message: string, fields: ElicitField[]): Entry['voice'] {
    if (!this.voice || !(fields.length === 0 || (fields.length === 1 && fields[0]?.type === 'boolean'))) return undefined;
    const call = this.voice.calls.only(server);
    const confirmTool = call?.confirmTool;
    if (!call?.answerNow || confirmTool === undefined) return undefined;
    const language = this.voice.language();
    const place = this.voice.pinFor();
    const where = place === undefined ? undefined : translate(language, `voice.confirm.whereIsPin.${place}`);
    const hide = pinHider(this.voice.pin?.());
    const task = call.answerNow((id) =>
      sentences(
        language,
        translate(language, 'voice.elicit.ask', { message: spoken(hide ? hide(message) : message), confirmTool, id }),
        where,
      ),
    );
    if (task === undefined) return undefined;
    return { session: call.session, task, ...(fields[0] ? { field: fields[0].name } : {}) };
  }

  list(): PendingElicitation[] {
    return [...this.pending.values()].map((entry) => entry.shown);
  }

  /** The user's answer; false when it no longer waits. Throws, saying which field, when a value does not fit. */
  answer(key: number, action: 'accept' | 'decline', content: Record<string, ElicitValue> = {}): boolean {
    const entry = this.pending.get(key);
    if (!entry) return false;
    if (action === 'decline') return this.settle(key, { action: 'decline' });
    return this.settle(key, { action: 'accept', content: checkedContent(entry.shown.fields, content) });
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The bridge stops: every question is cancelled, no timer left. */
  clear(): void {
    for (const key of [...this.pending.keys()]) this.settle(key, { action: 'cancel' });
  }

  private settle(key: number, result: ElicitResult): boolean {
    const entry = this.pending.get(key);
    if (!entry) return false;
    this.pending.delete(key);
    clearTimeout(entry.timer);
    entry.resolve(result);
    this.changed();
    return true;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The form's fields, or undefined when it has one this window cannot show (nobody is then asked). */
export function formFields(schema: { properties?: Record<string, unknown>; required?: string[] }): ElicitField[] | undefined {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length > MAX_FIELDS) return undefined;
  const required = new Set(schema.required ?? []);
  const fields: ElicitField[] = [];
  for (const [name, raw] of entries) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const p = raw as { type?: unknown; title?: unknown; description?: unknown; enum?: unknown; oneOf?: unknown };
    if (p.type !== 'string' && p.type !== 'number' && p.type !== 'integer' && p.type !== 'boolean') return undefined;
    const choices = Array.isArray(p.enum) ? p.enum.filter((c): c is string => typeof c === 'string') : undefined;
    if (choices && (choices.length > MAX_CHOICES || choices.some((c) => c.length > MAX_CHOICE_CHARS))) return undefined;
    fields.push({
      name,
      type: p.type,
      required: required.has(name),
      ...(typeof p.title === 'string' ? { title: p.title.slice(0, 200) } : {}),
      ...(typeof p.description === 'string' ? { description: p.description.slice(0, 500) } : {}),
      ...(choices && choices.length > 0 ? { choices } : {}),
    });
  }
  return fields;
}

/** The answer as the server's schema asks for it: known fields of the right type, the required ones there. */
function checkedContent(fields: ElicitField[], content: Record<string, ElicitValue>): Record<string, ElicitValue> {
  // Keyed by the server's field names: no prototype.
  const out = nameRecord<ElicitValue>();
  for (const field of fields) {
    const value = Object.hasOwn(content, field.name) ? content[field.name] : undefined;
    const label = field.title ?? field.name;
    if (value === undefined || value === '') {
      if (field.required) throw new Error(`"${label}" needs a value.`);
      continue;
    }
    const fits =
      field.type === 'boolean'
        ? typeof value === 'boolean'
        : field.type === 'string'
          ? typeof value === 'string' && (!field.choices || field.choices.includes(value))
          : typeof value === 'number' && Number.isFinite(value) && (field.type === 'number' || Number.isInteger(value));
    if (!fits) throw new Error(`"${label}" must be ${field.choices ? `one of ${field.choices.join(', ')}` : TYPE_WORDS[field.type]}.`);
    out[field.name] = value;
  }
  return out;
}
