import { z } from 'zod';
import { own } from './own';

/** The first problem of a failed parse: its dotted path ('' for the root) and message. */
export function firstIssue(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0];
  return { path: issue?.path.map(String).join('.') ?? '', message: issue?.message ?? 'invalid' };
}

type RawIssue = Parameters<z.core.$ZodErrorMap>[0];

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
  null: 'null',
};

/** What a JSON value is, in the words of the messages (never the value itself: it may be a secret). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a fraction';
  return TYPE_WORDS[typeof value] ?? typeof value;
}

const listOf = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

function sizeWords(origin: string, bound: number | bigint): string {
  if (origin === 'string') return `${bound} character${bound === 1 ? '' : 's'}`;
  if (origin === 'array' || origin === 'set') return `${bound} item${bound === 1 ? '' : 's'}`;
  return String(bound);
}

/**
 * Zod's messages ("Invalid discriminator value. Expected 'stdio' | 'sse'…") in the words the rest of
 * the app uses ("must be one of stdio, sse, streamable-http"). Messages a schema sets itself win;
 * `undefined` falls back to zod's own text.
 */
export function readableIssueMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'is required';
      const wanted = TYPE_WORDS[issue.expected] ?? issue.expected;
      return `must be ${wanted}, not ${kindOf(issue.input)}`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${listOf(issue.values)}` : `must be one of ${listOf(issue.values)}`;
    case 'invalid_union': {
      if (issue.discriminator && 'options' in issue && issue.options) {
        const given = own(issue.input as Record<string, unknown> | undefined, issue.discriminator);
        return `${given === undefined ? 'is required and ' : ''}must be one of ${listOf(issue.options as readonly unknown[])}`;
      }
      return 'does not match any of the allowed forms';
    }
    case 'too_small': {
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      if (issue.origin === 'array' && Number(issue.minimum) === 1) return 'must not be empty';
      return `must be ${issue.inclusive === false ? 'more than' : 'at least'} ${sizeWords(issue.origin, issue.minimum)}`;
    }
    case 'too_big':
      return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${sizeWords(issue.origin, issue.maximum)}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has a value that is not allowed';
    default:
      return undefined;
  }
}

let installed = false;

/**
 * Makes every zod parse in this process speak in readable messages. Zod's error map is global by
 * design, so this runs once, from the module that defines our schemas (settings.ts).
 */
export function useReadableZodMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: readableIssueMessage });
}
