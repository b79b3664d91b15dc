import { own } from '../../../shared/own';
import { type Problem, problem } from '../../../shared/problem';
import { englishText, ProblemError } from '../problems/server-problems';

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
  'service.noEntity': (p) => `${p.platform} has no device or sensor called "${p.entity}"`,
  'service.runFailed': (p) => `The ${p.platform} run failed: ${p.message}`,
  'service.noOutput': (p) => `${p.platform} has no output called ${p.output} (its last run had: ${p.outputs})`,
  'service.badArgument': (p) =>
    `${p.platform} was not asked: the argument ${p.name} cannot be "${p.value}" (it would leave the address's path)`,
};

/** Why a setup failed: said after "<platform> could not be set up: ". */
const SETUP: Record<string, (p: Params) => string> = {
  'service.setup.notOpenApi': () => 'the document is not OpenAPI 3 (it has no "openapi": "3.x")',
  'service.setup.noServer': () => 'the document names no server (servers[0].url): give the base URL',
  'service.setup.noScheme': (p) =>
    `credentials.${p.name}: the document has no security scheme "${p.name}" (${p.schemes ? `it has ${p.schemes}` : 'it has none'})${p.near ? `; did you mean "${p.near}"?` : ''}`,
  'service.setup.noOperation': (p) => `the document has no operation ${p.names}${p.near ? ` (did you mean ${p.near}?)` : ''}`,
  'service.setup.noFile': (p) => `cannot read ${p.file}: there is no such file`,
  'service.setup.cannotRead': (p) => `cannot read ${p.file}: ${p.reason}`,
  'service.setup.notParsed': (p) => `the document is neither JSON nor YAML (${p.reason})`,
  'service.setup.tooLarge': (p) =>
    `the document ${p.spec} is too large once its YAML aliases are expanded (over ${p.values} values); it was not used`,
  'service.setup.noAction': (p) => `it has no service ${p.names} (see Developer tools, Actions)`,
  'service.setup.documentTooBig': (p) => `the document ${p.spec} is larger than ${p.megabytes} MB; it was not read`,
};

export function serviceEnglish(item: Problem): string {
  const setup = own(SETUP, item.code);
  if (setup) return `${item.params.platform} could not be set up: ${setup(item.params)}`;
  return own(ENGLISH, item.code)?.(item.params) ?? englishText(item);
}

/** Whether a problem is one no retry can fix (the settings or the document are wrong). */
export const isSetupProblem = (item: Problem) =>
  item.code === 'service.setup' ||
  item.code.startsWith('service.setup.') ||
  item.code === 'service.badUrl' ||
  item.code === 'service.badHeader';

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
