import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';

import { type Language, translate } from '../../../shared/i18n/translate';
import { problem } from '../../../shared/problem';
import { serviceTarget } from '../../../shared/service-settings';
import type { ServiceSettings } from '../../../shared/settings';
import type { ServerStatus, SkippedTool } from '../../../shared/status';
import type { CallSignal } from '../io/call-signal';
import type { Logger } from '../logs/log-book';
import { redactProblem, redactText, redactUrl } from '../logs/redact';
import { type Failure, foreignFailure, ProblemError, say } from '../problems/server-problems';
import { ServerUnavailableError } from '../problems/server-unavailable';
import { serviceSecretValues } from '../secrets/service-secrets';
import type { Attempt } from '../servers/attempt';
import { SupervisedServer } from '../servers/supervised-server';
import { defaultSupervision, type Supervision } from '../servers/supervision';
import { type AttemptState, Supervisor } from '../servers/supervisor';
import { checkTools, skippedStatus, skippedWarning } from '../servers/tool-list';
import { cozeTools } from './coze';
import { difyTools } from './dify';
import { homeAssistantTools } from './home-assistant';
import { httpApiTools } from './http-api';
import { n8nTools } from './n8n';
import { openApiTools } from './openapi';
import { ServiceHttp } from './service-http';
import { isSetupProblem, serviceEnglish, ServiceError } from './service-problems';
import type { ServiceContext, ServiceTool } from './service-tools';

export interface ServiceServerOptions {
  settings: ServiceSettings;
  log: Logger;
  /** Read at each call, so a change in Settings applies without a restart. */
  defaults: () => { callTimeoutMs: number; backgroundTimeoutMs?: number };
  supervision?: Partial<Supervision>;
  onStatus: () => void;
  onTools: () => void;
  onAttempt?: (attempt: Promise<void>) => void;
  /** The config file's folder: a relative OpenAPI document path is read from there. */
  configDir?: string;
  /** Tests hand in their own fetch; the app uses Node's. */
  fetch?: typeof fetch;
  /** The language of what the model hears (absent: English). */
  language?: () => Language;
}

/** Requests made while setting up (a spec, Dify's parameters, Home Assistant's services) wait this long at most. */
const SETUP_TIMEOUT_MS = 20_000;

/** How each platform is named to the model and in the window. */
function platformName(settings: ServiceSettings): string {
  switch (settings.transport) {
    case 'coze':
      return 'Coze';
    case 'dify':
      return 'Dify';
    case 'n8n':
      return 'n8n';
    case 'home-assistant':
      return 'Home Assistant';
    case 'openapi':
    case 'http-api':
      return settings.name;
  }
}

type ToolBuilder<S extends ServiceSettings> = (settings: S, context: ServiceContext) => ServiceTool[] | Promise<ServiceTool[]>;

/** How each platform's tools are made: a new platform without one does not compile. */
const TOOL_BUILDERS: { [T in ServiceSettings['transport']]: ToolBuilder<Extract<ServiceSettings, { transport: T }>> } = {
  'http-api': httpApiTools,
  openapi: openApiTools,
  coze: cozeTools,
  dify: difyTools,
  n8n: n8nTools,
  'home-assistant': homeAssistantTools,
};

function buildTools(settings: ServiceSettings, context: ServiceContext): ServiceTool[] | Promise<ServiceTool[]> {
  // The table pairs each transport with its own settings type, which TypeScript cannot follow through the lookup.
  return (TOOL_BUILDERS[settings.transport] as ToolBuilder<ServiceSettings>)(settings, context);
}

/**
 * A web service served as tools, beside the MCP servers and behind the same face to the fleet and
 * the hub (status, tools, call): it has no process and no connection to keep, so "starting" is
 * building its tools (some platforms are asked first: an OpenAPI document, Dify's inputs, Home
 * Assistant's services) and a call is one bounded HTTP request. A setup that fails for a reason
 * that may pass (the network, a 5xx) is tried again as a remote server is; one no retry can fix
 * (a refused token, a wrong name) waits for the user.
 */
export class ServiceServer extends SupervisedServer {
  readonly name: string;
  /** A platform's failures are worded here, in the voice language (service-tools.ts). */
  readonly wordsFailures = true;
  protected readonly life: Supervisor;
  private tools: ServiceTool[] = [];
  private listed: Tool[] = [];
  /** The last tools it built in this run, kept while it is down: names are decided from them. */
  private lastListed: Tool[] = [];
  private skipped: SkippedTool[] = [];
  private readonly http: ServiceHttp;

  constructor(private readonly opts: ServiceServerOptions) {
    super();
    this.name = opts.settings.name;
    this.http = new ServiceHttp(platformName(opts.settings), opts.fetch);
    this.life = new Supervisor({
      log: opts.log,
      supervision: { ...defaultSupervision, ...opts.supervision },
      run: (attempt, state) => this.setUp(attempt, state),
      onStatus: opts.onStatus,
      onAttempt: opts.onAttempt,
    });
  }

  get config(): ServiceSettings {
    return this.opts.settings;
  }

  get currentTools(): readonly Tool[] {
    return this.listed;
  }

  get isRunning(): boolean {
    return this.life.state === 'running';
  }

  get knownTools(): readonly Tool[] {
    return this.lastListed;
  }

  get enabled(): boolean {
    return this.opts.settings.enabled;
  }

  status(): ServerStatus {
    return {
      ...this.lifeStatus(this.opts.settings, (failure) => this.failureText(failure)),
      toolCount: this.listed.length,
      stderrTail: [],
      ...skippedStatus(this.skipped),
    };
  }

  async stop(): Promise<void> {
    this.life.end();
    const hadTools = this.listed.length > 0;
    this.tools = [];
    this.listed = [];
    this.skipped = [];
    this.life.setState('stopped');
    if (hadTools) this.opts.onTools();
  }

  /** No process to kill. */
  killNow(): void {}

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: CallSignal | undefined; background?: boolean | undefined },
  ): Promise<CallToolResult> {
    if (this.life.state !== 'running') throw new ServerUnavailableError(this.name, this.life.state);
    const tool = this.tools.find((t) => t.tool.name === name);
    if (!tool) throw new Error(`it has no tool "${name}"`);
    const defaults = this.opts.defaults();
    const timeoutMs =
      this.opts.settings.callTimeoutMs ?? (options.background ? defaults.backgroundTimeoutMs : undefined) ?? defaults.callTimeoutMs;
    // What goes to xiaozhi (and its cloud) never holds this service's secrets, even when the
    // platform echoes them back (an n8n webhook answering with its request's headers, an error
    // quoting the URL with its key): masked as the log and the history mask them.
    const secrets = serviceSecretValues(this.opts.settings);
    const redact = (text: string) => redactText(text, secrets);
    try {
      const result = await tool.call(args, { timeoutMs, signal: options.signal });
      return { ...result, content: result.content.map((item) => (item.type === 'text' ? { ...item, text: redact(item.text) } : item)) };
    } catch (error) {
      if (error instanceof ServiceError) throw new ServiceError(redactProblem(error.problem, redact));
      throw error;
    }
  }

  private failureText(failure: Failure): string {
    return failure.foreign ?? serviceEnglish(failure.problem);
  }

  private async setUp(attempt: Attempt, state: AttemptState): Promise<void> {
    this.life.setState(state);
    let tools: ServiceTool[];
    const leftOut: SkippedTool[] = [];
    const language = this.opts.language ?? (() => 'en' as const);
    try {
      tools = await buildTools(this.opts.settings, {
        http: this.http,
        timeoutMs: SETUP_TIMEOUT_MS,
        log: this.opts.log,
        ...(this.opts.configDir ? { configDir: this.opts.configDir } : {}),
        language,
        say: (key, params) => translate(language(), key, params),
        leaveOut: (skipped) => void leftOut.push(skipped),
      });
    } catch (error) {
      if (attempt.live) this.fail(error);
      return;
    }
    if (!attempt.live) return;
    // Checked as any server's list is: a tool MCP would refuse is left out, with why, in the log.
    const checked = checkTools(tools.map((t) => t.tool));
    const served = new Set(checked.tools.map((t) => t.name));
    this.tools = tools.filter((t) => served.has(t.tool.name));
    this.listed = checked.tools;
    this.lastListed = checked.tools;
    this.skipped = [...leftOut, ...checked.skipped];
    // As an MCP server's: which tools and why, with a problem the Logs page words in its language.
    const warning = skippedWarning({ ...checked, skipped: this.skipped });
    if (warning) this.opts.log.warn(warning, problem('server.toolsLeftOut', { count: this.skipped.length, served: checked.tools.length }));
    say(this.opts.log, 'info', problem('server.running', { name: this.http.platform, version: '', tools: this.listed.length }));
    this.life.up({ forgetFailures: true });
    this.opts.onTools();
  }

  /** A setup that failed: tried again later when it may pass, else failed until the user restarts it. */
  private fail(error: unknown): void {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      // Not "MCP error -32001": which address did not answer, in the user's words.
      const url = redactUrl(serviceTarget(this.opts.settings));
      error = new ServiceError(problem('service.noAnswer', { platform: this.http.platform, url, seconds: SETUP_TIMEOUT_MS / 1000 }));
    }
    const failure: Failure = error instanceof ProblemError ? { problem: error.problem } : foreignFailure(error);
    if (error instanceof ProblemError) failure.foreign = error.message;
    const status = failure.problem.params.status;
    const permanent =
      isSetupProblem(failure.problem) || (failure.problem.code === 'service.http' && typeof status === 'number' && status < 500);
    // A web service is tried for ever: the network or the platform may come back.
    this.life.decide(failure, permanent ? 'permanent' : 'crash', { givesUp: false });
  }
}
