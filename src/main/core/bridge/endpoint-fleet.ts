import { countOf } from '../../../shared/count-words';
import { sameEndpointAs } from '../../../shared/endpoint-url';
import type { Language } from '../../../shared/i18n/translate';
import { problem } from '../../../shared/problem';
import type { Settings, ToolMode } from '../../../shared/settings';
import type { EndpointStatus } from '../../../shared/status';
import { EndpointLink } from '../endpoint/endpoint-link';
import type { ToolHub } from '../hub/tool-hub';
import { endpointFingerprint, type RunningCopies } from '../instances/running-copies';
import type { CallHistory } from '../logs/call-history';
import type { LogBook } from '../logs/log-book';
import type { BackgroundCalls } from '../long-calls/background-calls';
import { answerAfterMs } from '../long-calls/patience';
import { EndpointCatalogs, type EndpointMode } from '../serving/endpoint-catalogs';
import { APP_VERSION } from '../system/version';
import type { ChangeQueue } from './change-queue';

export interface EndpointFleetOptions {
  settings(): Settings;
  logBook: LogBook;
  hub: ToolHub;
  history: CallHistory;
  /** Serves every endpoint in this mode, whatever its settings say (`run --tool-mode`); not saved. */
  toolMode?: ToolMode | undefined;
  /** The mode of an endpoint whose settings name none (default `auto`). */
  defaultToolMode?: ToolMode | undefined;
  /** Resolves when the servers starting now are up (or failed), or their grace is over. */
  startSettled(): Promise<void>;
  /** Whether the bridge runs: a link replaced while it is stopped is not started. */
  running(): boolean;
  /** Shared with the servers: one change at a time. */
  queue: ChangeQueue;
  onStatus(): void;
  /** The links have heard of a change of tools: whoever else serves the sets hears it now. */
  onToolsNotified(): void;
  version?: string | undefined;
  /** Catalog changes within this window become one `list_changed`. */
  listChangedDebounceMs?: number | undefined;
  /** Where calls past an endpoint's patience go on, and the language the model is told so in. */
  longCalls?:
    { calls: BackgroundCalls; language: () => Language; sessionClosed?: (belongs: (session: string) => boolean) => void } | undefined;
  /** The other copies of the app with this state folder, and what they serve (none: not watched). */
  copies?: RunningCopies | undefined;
  /** How often the other copies are looked at while running. */
  copiesEveryMs?: number;
}

/**
 * One link per configured endpoint, by id: made from the settings, started, woken, replaced, told
 * when its tools change (one `list_changed` per burst), and warned of when past its tool budget;
 * with what each is served (its tool set, or the router over it).
 */
export class EndpointFleet {
  readonly catalogs: EndpointCatalogs;
  private readonly links = new Map<string, EndpointLink>();
  /** Endpoints already warned of being past their tool budget. */
  private readonly overBudget = new Set<string>();
  private listChangedTimer: NodeJS.Timeout | undefined;
  private copiesTimer: NodeJS.Timeout | undefined;
  /** What the other copies served when last looked at: endpoint fingerprint → their pids. */
  private seenCopies = new Map<string, Set<number>>();

  constructor(private readonly options: EndpointFleetOptions) {
    this.catalogs = new EndpointCatalogs({
      hub: options.hub,
      history: options.history,
      mode: endpointModes(options.settings, options.toolMode, options.defaultToolMode ?? 'auto'),
      maxMessageBytes: () => options.settings().limits.maxMessageBytes,
      budget: () => options.settings().limits,
      startSettled: () => options.startSettled(),
    });
    for (const endpoint of options.settings().endpoints) this.links.set(endpoint.id, this.make(endpoint));
  }

  /** Each link's status, with what it is served and the id of the set it serves. */
  statuses(): EndpointStatus[] {
    const { settings, hub } = this.options;
    return [...this.links.values()].map((link) => {
      const held = this.heldBy(link.id);
      return {
        ...link.status(),
        // Saved twice before that was refused: the second waits rather than fight the first.
        ...(held && this.enabled(link.id)
          ? {
              state: 'disconnected' as const,
              lastError: `the same endpoint as "${held.name}" (the same address and token): only one connection per endpoint is made; remove one`,
              lastErrorCause: problem('endpoint.duplicate', { name: held.name }),
            }
          : {}),
        served: this.catalogs.summary(link.id),
        toolSet: hub.forSet(settings().endpoints.find((e) => e.id === link.id)?.toolSet).id,
      };
    });
  }

  has(id: string): boolean {
    return this.links.has(id);
  }

  /** The link of endpoint `id` while it is connected ("Test connection" asks a relay through it rather than push it out). */
  connectedLink(id: string): Pick<EndpointLink, 'relayVerdict' | 'recheck'> | undefined {
    const link = this.links.get(id);
    return link?.isConnected ? link : undefined;
  }

  startEnabled(): void {
    for (const link of this.links.values()) if (this.enabled(link.id) && !this.heldBy(link.id)) link.start();
    this.watchCopies();
  }

  /**
   * Says which endpoints this copy serves, and looks at the other copies every few seconds: one that
   * starts serving an endpoint of ours is named in the log (the two will push each other out), and
   * when one that served it leaves, that endpoint's link looks again at once (a relay forgets the
   * connection that stays when another closes).
   */
  private watchCopies(): void {
    const copies = this.options.copies;
    if (!copies || this.copiesTimer) return;
    const look = () => {
      void copies.publish(this.servedUrls()).catch(() => undefined);
      const now = new Map<string, Set<number>>();
      for (const copy of copies.others())
        for (const fingerprint of copy.endpoints) now.set(fingerprint, (now.get(fingerprint) ?? new Set()).add(copy.pid));
      for (const link of this.links.values()) {
        const endpoint = this.options.settings().endpoints.find((e) => e.id === link.id);
        if (!endpoint?.enabled) continue;
        const fingerprint = endpointFingerprint(endpoint.url);
        const before = this.seenCopies.get(fingerprint) ?? new Set<number>();
        const after = now.get(fingerprint) ?? new Set<number>();
        const came = [...after].filter((pid) => !before.has(pid));
        const left = [...before].filter((pid) => !after.has(pid));
        if (came.length > 0) {
          const copy = copies.others().find((c) => c.pid === came[0]);
          this.options.logBook
            .logger(`endpoint:${link.name}`)
            .warn(
              `another copy of Xiaozhi Tray also serves this endpoint (${copy?.kind === 'desktop' ? 'the desktop app' : `xiaozhi-tray run${copy?.config ? ` --config ${copy.config}` : ''}`}, pid ${came[0]}): an endpoint takes one connection, so the two push each other out; stop one of them`,
              copy?.kind === 'desktop'
                ? problem('endpoint.alsoServedByApp', { pid: came[0] as number })
                : problem('endpoint.alsoServedByRun', { pid: came[0] as number, config: copy?.config ?? '…' }),
            );
        }
        if (came.length > 0 || left.length > 0) link.recheck();
      }
      this.seenCopies = now;
    };
    look();
    this.copiesTimer = setInterval(look, this.options.copiesEveryMs ?? 3000);
    this.copiesTimer.unref();
  }

  /** The endpoints this copy connects (enabled, and not held off as a duplicate). */
  private servedUrls(): string[] {
    return this.options
      .settings()
      .endpoints.filter((e) => e.enabled && !this.heldBy(e.id))
      .map((e) => e.url);
  }

  /**
   * The enabled endpoint before `id` with the same address and token, if any: settings saved before
   * duplicates were refused may hold one twice, and two connections of one token replace each other.
   */
  private heldBy(id: string): Settings['endpoints'][number] | undefined {
    const endpoints = this.options.settings().endpoints;
    const index = endpoints.findIndex((e) => e.id === id);
    if (index <= 0) return undefined;
    return sameEndpointAs(
      (endpoints[index] as Settings['endpoints'][number]).url,
      endpoints.slice(0, index).filter((e) => e.enabled),
    );
  }

  /** A list_changed still waiting to be sent is not sent (the bridge is stopping). */
  cancelListChanged(): void {
    if (this.listChangedTimer) clearTimeout(this.listChangedTimer);
    this.listChangedTimer = undefined;
  }

  async stop(): Promise<void> {
    this.cancelListChanged();
    if (this.copiesTimer) clearInterval(this.copiesTimer);
    this.copiesTimer = undefined;
    this.seenCopies = new Map();
    await Promise.all([...this.links.values()].map((link) => link.stop()));
    this.options.copies?.withdraw();
  }

  /** The machine resumed or its network came back: endpoints retry or check their socket now. */
  wake(): void {
    for (const link of this.links.values()) link.wake();
  }

  /** This endpoint's session stays up: it hears list_changed and reads the new list. */
  notifyToolsChanged(id: string): void {
    this.links.get(id)?.notifyToolsChanged();
  }

  /** The catalog changed: after a quiet moment, every endpoint whose set changed hears about it. */
  catalogChanged(): void {
    if (this.listChangedTimer) clearTimeout(this.listChangedTimer);
    this.listChangedTimer = setTimeout(() => {
      this.listChangedTimer = undefined;
      // Each consumer compares its own set's version: only those whose set changed hear about it.
      for (const link of this.links.values()) link.notifyToolsChanged();
      this.options.onToolsNotified();
      // Judged once the servers starting now are up (or failed): a count taken halfway is not what xiaozhi gets.
      void this.options.startSettled().then(() => {
        if (this.options.running()) this.warnOverBudget();
      });
    }, this.options.listChangedDebounceMs ?? 300);
  }

  /** Stops the link of endpoint `id` and makes it again as the settings now say (none if it was removed). */
  replace(id: string): Promise<void> {
    return this.options.queue.run(async () => {
      await this.links.get(id)?.stop();
      this.links.delete(id);
      const endpoint = this.options.settings().endpoints.find((e) => e.id === id);
      if (!endpoint) return;
      const link = this.make(endpoint);
      this.links.set(id, link);
      if (this.options.running() && endpoint.enabled && !this.heldBy(id)) link.start();
      // An endpoint held off as a duplicate of this one may go now.
      if (this.options.running())
        for (const other of this.links.values()) if (this.enabled(other.id) && !this.heldBy(other.id)) other.start();
    });
  }

  /** Every link again (the connection settings changed). */
  async replaceAll(): Promise<void> {
    for (const id of [...this.links.keys()]) await this.replace(id);
  }

  /**
   * The window shows an endpoint past its tool budget; a headless user reads the log. Said once
   * per endpoint each time it goes over, not at every change.
   */
  private warnOverBudget(): void {
    const { budgetTools, budgetBytes } = this.options.settings().limits;
    for (const link of this.links.values()) {
      const served = this.catalogs.summary(link.id);
      const over = served.toolCount > budgetTools || served.bytes > budgetBytes;
      if (over && !this.overBudget.has(link.id)) {
        this.options.logBook
          .logger(`endpoint:${link.name}`)
          .warn(
            `serves ${countOf(served.toolCount, 'tool')} (${served.bytes} bytes in ${countOf(served.pages, 'page')}), past the budget of ${budgetTools} tools / ${budgetBytes} bytes: xiaozhi may drop or fail the list. Switch tools off, or let the endpoint's tool mode be auto (the default) or router`,
            problem('endpoint.overBudget', { count: served.toolCount, tools: budgetTools, bytes: budgetBytes }),
          );
      }
      if (over) this.overBudget.add(link.id);
      else this.overBudget.delete(link.id);
    }
  }

  private make(endpoint: Settings['endpoints'][number]): EndpointLink {
    const { options } = this;
    return new EndpointLink({
      endpoint,
      connection: options.settings().connection,
      hub: this.catalogs.forEndpoint(endpoint.id),
      log: options.logBook.logger(`endpoint:${endpoint.name}`),
      maxMessageBytes: () => options.settings().limits.maxMessageBytes,
      maxIncomingBytes: options.settings().limits.maxIncomingBytes,
      onStatus: () => options.onStatus(),
      version: options.version ?? APP_VERSION,
      ...(options.longCalls
        ? {
            longCalls: {
              ...options.longCalls,
              // Read at each call: a patience changed in Settings applies to the next call.
              answerAfterMs: endpointPatience(() => options.settings(), endpoint),
            },
          }
        : {}),
      language: () => options.hub.language,
      ...(options.copies
        ? { otherCopy: () => options.copies?.holding(endpoint.url), yieldTo: () => options.copies?.outranking(endpoint.url) }
        : {}),
    });
  }

  private enabled(id: string): boolean {
    return this.options.settings().endpoints.find((e) => e.id === id)?.enabled === true;
  }
}

/**
 * When an endpoint's calls are answered early, read for every call: kept per settings object (a
 * change replaces it), since working it out parses the endpoint's URL.
 */
function endpointPatience(settings: () => Settings, endpoint: Settings['endpoints'][number]): () => number {
  let kept: { settings: Settings | undefined; ms: number } = { settings: undefined, ms: 0 };
  return () => {
    const current = settings();
    if (kept.settings !== current)
      kept = { settings: current, ms: answerAfterMs(current.endpoints.find((e) => e.id === endpoint.id) ?? endpoint) };
    return kept.ms;
  };
}

/**
 * Each endpoint's tool mode, pinned tools and set, as the catalogs read them for every call
 * (twice): kept per settings object, which a change replaces. `override` is this run's
 * `--tool-mode`, never saved.
 */
function endpointModes(settings: () => Settings, override: ToolMode | undefined, unset: ToolMode): (id: string) => EndpointMode {
  let modes: { settings: Settings | undefined; byId: Map<string, EndpointMode> } = { settings: undefined, byId: new Map() };
  return (id) => {
    const current = settings();
    if (modes.settings !== current) modes = { settings: current, byId: new Map() };
    let mode = modes.byId.get(id);
    if (!mode) {
      const endpoint = current.endpoints.find((e) => e.id === id);
      mode = { toolMode: override ?? endpoint?.toolMode ?? unset, pinned: endpoint?.pinned ?? [], toolSet: endpoint?.toolSet };
      modes.byId.set(id, mode);
    }
    return mode;
  };
}
