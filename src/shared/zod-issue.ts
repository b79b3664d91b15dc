import { z } from 'zod';

import { hasMessage, type Translate, translator } from './i18n/translate';
import { own } from './own';
import type { Problem } from './problem';

/** The first problem of a failed parse: its dotted path ('' for the root) and message. */
export function firstIssue(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0];
  return { path: issue?.path.map(String).join('.') ?? '', message: issue?.message ?? 'invalid' };
}

type RawIssue = Parameters<z.core.$ZodErrorMap>[0];

/** What a JSON value is, as a kind the dictionaries word (`zod.kind.*`), never the value itself: it may be a secret. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'fraction';
  return typeof value;
}

const listOf = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

const unitOf = (origin: string) => (origin === 'string' ? 'chars' : origin === 'array' || origin === 'set' ? 'items' : 'plain');

/**
 * What was wrong with a value, as data (`config.invalidValue`, its `reason` and parameters), so the
 * CLI and the window word it in their language; `undefined` for issues zod words itself (custom ones).
 */
export function issueProblem(issue: RawIssue): Problem | undefined {
  const is = (reason: string, params: Record<string, string | number> = {}): Problem => ({
    code: 'config.invalidValue',
    params: { reason, ...params },
  });
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return is('required');
      return is('type', { expected: issue.expected, got: kindOf(issue.input) });
    case 'invalid_value':
      return is(issue.values.length === 1 ? 'one' : 'oneOf', { values: listOf(issue.values) });
    case 'invalid_union': {
      if (issue.discriminator && 'options' in issue && issue.options) {
        const given = own(issue.input as Record<string, unknown> | undefined, issue.discriminator);
        return is(given === undefined ? 'requiredOneOf' : 'oneOf', { values: listOf(issue.options as readonly unknown[]) });
      }
      return is('noForm');
    }
    case 'too_small': {
      if ((issue.origin === 'string' || issue.origin === 'array') && Number(issue.minimum) === 1) return is('notEmpty');
      return is(issue.inclusive === false ? 'moreThan' : 'atLeast', { count: Number(issue.minimum), unit: unitOf(issue.origin) });
    }
    case 'too_big':
      return is(issue.inclusive === false ? 'lessThan' : 'atMost', { count: Number(issue.maximum), unit: unitOf(issue.origin) });
    case 'invalid_format':
      return is('format', { format: issue.format });
    case 'not_multiple_of':
      return is('multipleOf', { divisor: Number(issue.divisor) });
    case 'unrecognized_keys':
      return is('unknownKeys', { keys: issue.keys.map((k) => `"${k}"`).join(', '), count: issue.keys.length });
    case 'invalid_key':
      return is('badKey');
    case 'invalid_element':
      return is('badElement');
    default:
      return undefined;
  }
}

/** A word the dictionaries have (`zod.kind.string`…), or the raw one (a type no config uses). */
const kindWord = (t: Translate, kind: string | number | undefined) => {
  const key = `zod.kind.${String(kind)}`;
  return hasMessage(key) ? t(key) : String(kind);
};

/** An `issueProblem` in the reader's language; `undefined` for another problem, or a reason new to us. */
export function issueWords(t: Translate, problem: Problem | undefined): string | undefined {
  if (problem?.code !== 'config.invalidValue') return undefined;
  const { params } = problem;
  const key = `zod.${String(params.reason)}`;
  if (!hasMessage(key)) return undefined;
  const unit = `zod.size.${String(params.unit)}`;
  const size = hasMessage(unit) ? t(unit, { count: params.count ?? 0 }) : String(params.count);
  return t(key, { ...params, expected: kindWord(t, params.expected), got: kindWord(t, params.got), size });
}

const english = translator('en');

/**
 * Zod's messages ("Invalid discriminator value. Expected 'stdio' | 'sse'…") in the words the rest of
 * the app uses ("must be one of stdio, sse, streamable-http"). Messages a schema sets itself win;
 * `undefined` falls back to zod's own text.
 */
export function readableIssueMessage(issue: RawIssue): string | undefined {
  return issueWords(english, issueProblem(issue));
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
