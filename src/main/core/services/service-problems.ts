import { problem, type Problem } from '../../../shared/problem';
import { englishText, ProblemError } from '../servers/server-problems';

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
  'service.tooBig': (p) => `${p.platform} answered with more than ${p.megabytes} MB; the answer was not read`,
  'service.unreachable': (p) => `${p.platform} could not be reached at ${p.host}: nothing answered there`,
  'service.noHost': (p) => `${p.platform} could not be reached: there is no host named ${p.host}`,
  'service.badUrl': (p) => `${p.platform}: "${p.url}" is not a full web address (http:// or https://)`,
  'service.badHeader': (p) => `${p.platform} was not asked: the header ${p.header} can only hold plain Latin text, on one line`,
  'service.tooManyRedirects': (p) => `${p.platform} redirected the request too many times; it was stopped`,
  'service.noAnswer': (p) => `${p.platform} did not answer ${p.url} within ${p.seconds} seconds`,
  'service.badArgument': (p) =>
    `${p.platform} was not asked: the argument ${p.name} cannot be "${p.value}" (it would leave the address's path)`,
};

export function serviceEnglish(item: Problem): string {
  return ENGLISH[item.code]?.(item.params) ?? englishText(item);
}

/** A URL as the request goes out: a full http(s) address, or a worded problem (not "Invalid URL"). */
export function webUrl(platform: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError(problem('service.badUrl', { platform, url: raw.slice(0, 200) }));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ServiceError(problem('service.badUrl', { platform, url: raw.slice(0, 200) }));
  return url;
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
