import type { Language } from '../../../shared/i18n/translate';
import type { SentenceCheckProgress } from '../../../shared/model-api';
import { modelReady, type ModelSettings } from '../../../shared/model-settings';
import type { Settings, ToolMode } from '../../../shared/settings';
import { ArgumentCheck } from '../hub/argument-check';
import type { VoiceCalls } from '../hub/builtin/voice-calls';
import type { ToolHub } from '../hub/tool-hub';
import type { Logger } from '../logs/log-book';
import type { EndpointCatalogs, EndpointMode } from '../serving/endpoint-catalogs';
import { ModelClient } from './model-client';
import { SamplingAnswers } from './sampling-answers';
import { SentenceTrial } from './sentence-trial';

export interface ModelRoomOptions {
  settings(): Settings;
  hub: ToolHub;
  catalogs: EndpointCatalogs;
  calls: VoiceCalls;
  log: Logger;
  redact(text: string): string;
  /** A check's progress, for the window. */
  progress(progress: SentenceCheckProgress): void;
  /** Serves every endpoint in this mode (`run --tool-mode`), as the endpoint links do. */
  toolMode?: ToolMode | undefined;
  /** The client's fetch and time bound (tests). */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * The chat model's room: one client for the settings as they are (made again when they change),
 * "Try a sentence" over what an endpoint serves, and servers' sampling by voice answered with consent.
 */
export class ModelRoom {
  readonly trial: SentenceTrial;
  readonly sampling: SamplingAnswers;
  private made: { key: string; client: ModelClient } | undefined;
  /** The check running now: one at a time. */
  checking: AbortController | undefined;

  constructor(private readonly options: ModelRoomOptions) {
    const check = new ArgumentCheck(options.log);
    this.trial = new SentenceTrial({
      catalogs: options.catalogs,
      hub: options.hub,
      language: () => this.language,
      argumentsChecked: (server) => options.settings().servers.find((s) => s.name === server)?.checkArguments !== false,
      check,
      redact: options.redact,
    });
    this.sampling = new SamplingAnswers({
      model: () => {
        const settings = options.settings().model;
        const client = this.client();
        return settings?.sampling.enabled === true && client ? { client, bounds: settings.sampling } : undefined;
      },
      calls: options.calls,
      log: options.log,
    });
  }

  get language(): Language {
    return this.options.hub.language;
  }

  get settings(): Settings {
    return this.options.settings();
  }

  get hub(): ToolHub {
    return this.options.hub;
  }

  get catalogs(): EndpointCatalogs {
    return this.options.catalogs;
  }

  get redact(): (text: string) => string {
    return this.options.redact;
  }

  progress(progress: SentenceCheckProgress): void {
    this.options.progress(progress);
  }

  /** The client for the model as set up now; undefined without one (or without the key it needs). */
  client(model: ModelSettings | undefined = this.options.settings().model): ModelClient | undefined {
    if (!model || !modelReady(model)) return undefined;
    const key = JSON.stringify([model.provider, model.baseUrl, model.model, model.apiKey, model.stream]);
    if (this.made?.key !== key)
      this.made = {
        key,
        client: new ModelClient(model, {
          ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
          ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
        }),
      };
    return this.made.client;
  }

  /**
   * What an endpoint serves (its set, mode and pinned tools) and its name: the one asked for, else
   * the first; with no endpoint, every tool of the default set.
   */
  modeOf(endpointId?: string): { mode: EndpointMode; endpoint?: string } {
    const endpoints = this.options.settings().endpoints;
    const endpoint = endpointId === undefined ? endpoints[0] : endpoints.find((e) => e.id === endpointId);
    if (endpointId !== undefined && !endpoint) throw new Error(`No endpoint has the id "${endpointId}".`);
    if (!endpoint) return { mode: { toolMode: this.options.toolMode ?? 'all', pinned: [], toolSet: undefined } };
    return {
      mode: { toolMode: this.options.toolMode ?? endpoint.toolMode ?? 'all', pinned: endpoint.pinned ?? [], toolSet: endpoint.toolSet },
      endpoint: endpoint.name,
    };
  }
}
