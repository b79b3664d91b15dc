import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import type { Language, MessageKey } from '../../../shared/i18n/translate';
import { problem } from '../../../shared/problem';
import type { ServiceInputSchema, ServiceResultSchema } from '../../../shared/service-settings';
import type { SkippedTool } from '../../../shared/status';
import type { Logger } from '../logs/log-book';
import { atPointer, clipped, type RequestOptions, type ServiceAnswer, type ServiceHttp, spoken } from './service-http';
import { ServiceError } from './service-problems';

export type ServiceInput = z.output<typeof ServiceInputSchema>;
export type ServiceResult = z.output<typeof ServiceResultSchema>;

/** One tool of a web service: what the hub lists, and the request it makes. */
export interface ServiceTool {
  tool: Tool;
  call(args: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult>;
}

/** What a platform needs to build its tools (some ask the platform first: Dify's inputs, Home Assistant's services). */
export interface ServiceContext {
  http: ServiceHttp;
  /** For the requests made while setting up. */
  timeoutMs: number;
  log: Logger;
  /** The config file's folder (absent: the working folder), for a relative file path. */
  configDir?: string;
  /** The language of what the model hears (read at each call: a change in Settings applies at once). */
  language(): Language;
  /** A text the model hears, in its language (`voice.service.*`). */
  say(key: MessageKey, params?: Record<string, string | number>): string;
  /** A tool asked for that cannot be made (a misspelled action): the others are served, and this one shown in the status. */
  leaveOut(skipped: SkippedTool): void;
}

/** The one text item the model reads. */
export const textAnswer = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

/** The input schema of a list of declared inputs (a workflow's, a webhook's). */
export function inputsSchema(inputs: readonly ServiceInput[]): Tool['inputSchema'] {
  const properties = Object.fromEntries(
    inputs.map((input) => [input.name, { type: input.type, ...(input.description ? { description: input.description } : {}) }]),
  );
  const required = inputs.filter((i) => i.required).map((i) => i.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

const FIELD = /\{(\/[^{}]*|)\}/g;

/**
 * An answer as the model hears it: a template of fields (`It is {/data/temp} degrees`), one field
 * (`/data/temp`), or the whole answer (JSON compacted, text as it is). A field that is not in the
 * answer (a `pick`, or every field of a `template`) is said, with what the platform answered: the
 * request was made, and a silent empty answer would hide a setting that is wrong.
 */
export function shapedAnswer(answer: ServiceAnswer, result: ServiceResult | undefined, context?: Pick<ServiceContext, 'say'>): string {
  const value = answer.json ?? answer.text;
  const missing = (field: string) => (context ? context.say('voice.service.noField', { field, answer: clipped(spoken(value)) }) : '');
  if (result?.template !== undefined) {
    const fields = [...result.template.matchAll(FIELD)].map((m) => m[1] as string);
    const absent = fields.filter((pointer) => atPointer(value, pointer) === undefined);
    if (fields.length > 0 && absent.length === fields.length) return missing(absent[0] as string);
    return result.template.replace(FIELD, (_whole, pointer: string) => spoken(atPointer(value, pointer)));
  }
  if (result?.pick !== undefined) {
    const picked = atPointer(value, result.pick);
    return picked === undefined ? missing(result.pick || '/') : spoken(picked);
  }
  return spoken(value);
}

const PLACEHOLDER = /\{([A-Za-z0-9_.-]+|\*)\}/g;

/** The argument names a template uses (`/pets/{petId}` → petId). */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string).filter((name) => name !== '*');
}

/** A template with each `{arg}` replaced by its value as text (through `encode`, for a URL); a missing argument leaves it empty. */
export function fillText(template: string, args: Record<string, unknown>, encode: (s: string, name: string) => string = (s) => s): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => (name === '*' ? '' : encode(spoken(own(args, name)), name)));
}

/**
 * An argument as one segment of a URL's path: every `/`, `?` and `%` encoded, and `.` or `..`
 * refused, since the URL parser would climb out of the operation's path with them (`/users/../admin`),
 * encoded or not, toward other endpoints of the same host, with the service's credentials.
 */
export function pathSegment(platform: string): (value: string, name: string) => string {
  return (value, name) => {
    if (value === '.' || value === '..') throw new ServiceError(problem('service.badArgument', { platform, name, value }));
    return encodeURIComponent(value);
  };
}

/** A URL template filled in: arguments before the `?` as path segments, after it as encoded text. */
export function fillUrl(template: string, args: Record<string, unknown>, platform: string): string {
  const at = template.indexOf('?');
  const path = at === -1 ? template : template.slice(0, at);
  const query = at === -1 ? '' : template.slice(at);
  return fillText(path, args, pathSegment(platform)) + fillText(query, args, encodeURIComponent);
}

/**
 * A JSON body template filled in: a string that is exactly `"{arg}"` becomes the argument's value
 * (a number stays a number), `"{*}"` all the arguments, and `{arg}` inside longer text its text.
 * Bounded by the template, which the user wrote.
 */
export function fillBody(template: unknown, args: Record<string, unknown>, depth = 0): unknown {
  if (depth > 32) return template;
  if (typeof template === 'string') {
    if (template === '{*}') return args;
    const whole = /^\{([A-Za-z0-9_.-]+)\}$/.exec(template);
    if (whole) return own(args, whole[1] as string);
    return fillText(template, args);
  }
  if (Array.isArray(template)) return template.map((item) => fillBody(item, args, depth + 1));
  if (typeof template === 'object' && template !== null)
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillBody(v, args, depth + 1)]));
  return template;
}

const own = (args: Record<string, unknown>, name: string): unknown =>
  Object.prototype.hasOwnProperty.call(args, name) ? args[name] : undefined;

/** The names a body template uses, so arguments it does not take can go elsewhere. */
export function bodyPlaceholders(template: unknown, found: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > 32) return found;
  if (typeof template === 'string') for (const name of placeholders(template)) found.add(name);
  else if (Array.isArray(template)) for (const item of template) bodyPlaceholders(item, found, depth + 1);
  else if (typeof template === 'object' && template !== null)
    for (const value of Object.values(template)) bodyPlaceholders(value, found, depth + 1);
  return found;
}
