import type { Problem } from '../../../shared/problem';
import { ProblemError } from '../servers/server-problems';

type Params = Problem['params'];

const said = (p: Params) => (p.message ? `: ${p.message}` : '');

/** The English of a web service's problems: for the log, the CLI, and what the model hears of a failed call. */
const ENGLISH: Record<string, (p: Params) => string> = {
  'service.http': (p) => `${p.platform} answered HTTP ${p.status}${said(p)}`,
  'service.refused': (p) =>
    `${p.platform} refused the request${said(p)}${p.code !== undefined && p.code !== '' ? ` (code ${p.code})` : ''}`,
  'service.notJson': (p) => `${p.platform} answered with something other than JSON (HTTP ${p.status})`,
  'service.redirect': (p) => `${p.platform} redirected the request to another site (${p.host}); it was not followed`,
  'service.setup': (p) => `${p.platform} could not be set up: ${p.detail}`,
  'service.badArgument': (p) =>
    `${p.platform} was not asked: the argument ${p.name} cannot be "${p.value}" (it would leave the address's path)`,
};

export function serviceEnglish(item: Problem): string {
  return ENGLISH[item.code]?.(item.params) ?? item.code;
}

/**
 * A web service's failure, as its problem: the hub words it for the model (the message, short and
 * speakable) and the window in its own language (the problem).
 */
export class ServiceError extends ProblemError {
  constructor(problem: Problem) {
    super(problem);
    this.message = serviceEnglish(problem);
  }
}
