import WebSocket from 'ws';

import type { Language } from '../../../shared/i18n/translate';
import { problem } from '../../../shared/problem';
import type { ConnectionSettings, EndpointSettings } from '../../../shared/settings';
import type { EndpointState, EndpointStatus } from '../../../shared/status';
import type { RunningCopy } from '../instances/running-copies';
import { Backoff } from '../io/backoff';
import type { Corkable } from '../io/cork';
import type { Logger } from '../logs/log-book';
import { redactText, redactUrl } from '../logs/redact';
import { endpointUrlSecrets, redactProblem } from '../secrets/bridge-secrets';
import type { EndpointTools } from '../serving/endpoint-catalogs';
import type { SettlingTools } from '../serving/settling-tools';
import type { LongCallOptions } from './endpoint-calls';
import {
  closedWith,
  type EndpointFailure,
  failureLine,
  heldByAnother,
  isReplaced,
  needsTheUser,
  noPong,
  refusedWith,
  replacedBy,
  socketFailed,
  tooBig,
} from './endpoint-failure';
import { EndpointSession } from './endpoint-session';
import { checkRelay, relayCallUrl, type RelayVerdict } from './relay-check';
import { upgradedSocket } from './ws-server-transport';

export interface EndpointLinkOptions {
  endpoint: EndpointSettings;
  connection: ConnectionSettings;
  /** What this endpoint serves (the hub's catalog, or router mode over it), waiting for servers still starting. */
  hub: SettlingTools<EndpointTools>;
  log: Logger;
  maxMessageBytes: () => number;
  /** Frames from the endpoint past this size end the connection instead of filling memory. */
  maxIncomingBytes: number;
  onStatus: () => void;
  version: string;
  /** Calls past the caller's patience are answered and go on in the background (absent: awaited). */
  longCalls?: LongCallOptions | undefined;
  /** The user's language, for what the bridge words itself in answers. */
  language?: () => Language;
  /** Another copy of ours (same state folder) serving this endpoint, to name when the endpoint is taken from us. */
  otherCopy?: () => RunningCopy | undefined;
  /** Another copy of ours that keeps this endpoint when both want it: while it runs, this link does not take the endpoint back. */
  yieldTo?: () => RunningCopy | undefined;
}

/** An initialised session that lasted this long shows the endpoint works (see the close handler). */
const WORKING_SESSION_MS = 1000;

/**
 * When a self-hosted relay is asked whether it still routes to a new connection: soon (it forgets
 * a connection that replaced a stale one as soon as the stale one's close is handled, up to its 10 s
 * close timeout later), then every `connection.relayCheckMs`.
 */
const EARLY_RELAY_CHECKS_MS = [2_000, 12_000, 30_000, 60_000];
/** After another program took the endpoint: the first look at whether it is free again. */
const FIRST_REPLACED_WAIT_MS = 3_000;
/**
 * For an hour after another program held the endpoint, the relay is asked this often: when that
 * program goes, the relay forgets us too, and xiaozhi should not wait the usual interval for its tools.
 */
const AFTER_OTHER_CHECK_MS = 30_000;
const AFTER_OTHER_FOR_MS = 3_600_000;

/**
 * One xiaozhi endpoint: holds its WebSocket (an `EndpointSession` plays the MCP server over it),
 * detects dead sockets and reconnects forever. Children are not touched when it drops.
 */
export class EndpointLink {
  readonly id: string;
  private readonly opts: EndpointLinkOptions;
  private readonly backoff: Backoff;
  private state: EndpointState = 'disconnected';
  private since = Date.now();
  private retryAt: number | undefined;
  /** Why the last attempt failed or the last connection ended (shown until the next one opens). */
  private lastFailure: EndpointFailure | undefined;
  /** The first thing that went wrong with the current socket: later errors are consequences of tearing it down. */
  private socketFailure: EndpointFailure | undefined;
  private failures = 0;

  private socket: WebSocket | undefined;
  private session: EndpointSession | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private pongTimer: NodeJS.Timeout | undefined;
  private connectedAt = 0;
  private running = false;
  private stopping: Promise<void> | undefined;

  /** Where a self-hosted relay's xiaozhi side is for this endpoint (none: not such a relay, or never asked). */
  private callUrl: string | undefined;
  /** The relay could not be asked (its xiaozhi side refused us): asked no more. */
  private relayUnanswered = false;
  private relayTimer: NodeJS.Timeout | undefined;
  private relayChecks = 0;
  /** A check's ping on its way through the relay: whether it reached this connection. */
  private watching: { nonce: string; seen: boolean } | undefined;
  /** How long the next connection after a forgotten one waits (doubling while the relay keeps forgetting). */
  private rejoinMs = 0;
  /** Another program took the endpoint: since when, and how long the next look at it waits. */
  private replaced: { since: number; waitMs: number } | undefined;
  /** When another program last held the endpoint. */
  private otherSeenAt = 0;
  constructor(opts: EndpointLinkOptions) {
    this.opts = opts;
    this.id = opts.endpoint.id;
    this.callUrl = opts.connection.relayCheckMs > 0 ? relayCallUrl(opts.endpoint.url) : undefined;
    // Full jitter, and never more than half the outage so far: an endpoint back after a 5 s outage
    // is served again within about 2.5 s, while a long outage still backs off to the cap.
    // At least half the base, so the first retries after a drop are not a tenth of a second apart.
    this.backoff = new Backoff(opts.connection.reconnectBaseMs, opts.connection.reconnectMaxMs, Math.random, {
      outageFraction: 0.5,
      floorMs: opts.connection.reconnectBaseMs / 2,
    });
  }

  get name(): string {
    return this.opts.endpoint.name;
  }

  get isConnected(): boolean {
    return this.state === 'connected';
  }

  status(): EndpointStatus {
    const tokens = endpointUrlSecrets(this.opts.endpoint.url);
    const redact = (text: string) => redactText(text, [this.opts.endpoint.url, ...tokens]);
    const failure = this.lastFailure;
    return {
      id: this.id,
      name: this.opts.endpoint.name,
      // Its card's address line: the token masked wherever the address carries it (a path, a fragment, a user name).
      url: redactText(redactUrl(this.opts.endpoint.url), tokens),
      enabled: this.opts.endpoint.enabled,
      state: this.opts.endpoint.enabled || this.running ? this.state : 'disabled',
      since: this.since,
      ...(this.retryAt !== undefined ? { retryAt: this.retryAt } : {}),
      ...(failure ? { lastError: redact(failureLine(failure)), lastErrorCause: redactProblem(failure.problem, redact) } : {}),
      attempts: this.failures,
      ...(this.state === 'connected' && this.session?.toolsRead ? { toolsRead: this.session.toolsRead } : {}),
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.backoff.reset();
    this.failures = 0;
    this.replaced = undefined;
    this.connect();
  }

  /** Closes the socket and stops retrying. */
  stop(): Promise<void> {
    // Two stops at once (the app quitting during a save) share one: a second would detach the
    // first one's close listener and leave it waiting forever.
    this.stopping ??= this.closeAndDetach().finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  private async closeAndDetach(): Promise<void> {
    this.running = false;
    this.clearRetry();
    const socket = this.socket;
    if (socket && socket.readyState === WebSocket.OPEN) {
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.close(1000, 'bridge stopped');
      const timer = setTimeout(() => socket.terminate(), 2000);
      await closed;
      clearTimeout(timer);
    }
    // Stopped on purpose (the app quits, the endpoint is switched off): its calls stop too.
    this.detach(true, false);
    this.retryAt = undefined;
    this.setState('disconnected');
  }

  /**
   * The machine woke up or its network came back: a retry that is waiting goes now, and a socket
   * that looks connected is checked at once instead of at the next heartbeat.
   */
  wake(): void {
    if (!this.running) return;
    if (this.waitsForOther) this.lookAgain();
    else if (this.state === 'waiting') {
      this.backoff.reset();
      this.connect();
    } else if (this.state === 'connected' && this.socket) {
      this.checkAlive(this.socket);
      this.checkRelayNow();
    }
  }

  /**
   * Something changed on the endpoint's other side (a copy of ours that served it left, or came):
   * a relay that may have forgotten us is asked now, and an endpoint another program held is looked at again.
   */
  recheck(): void {
    if (!this.running) return;
    if (this.waitsForOther) this.lookAgain();
    else if (this.state === 'connected') this.checkRelayNow();
  }

  /** Whether a self-hosted relay routes xiaozhi to this connection now ('unsupported': not connected, or no relay to ask). */
  relayVerdict(): Promise<RelayVerdict> {
    return this.state === 'connected' ? this.askRelay() : Promise.resolve('unsupported');
  }

  /** Tells the endpoint the catalog changed (cheap; xiaozhi may only re-read per conversation). */
  notifyToolsChanged(): void {
    this.session?.notifyToolsChanged();
  }

  private setState(state: EndpointState): void {
    if (state !== 'waiting') this.retryAt = undefined;
    if (this.state === state) {
      this.opts.onStatus();
      return;
    }
    this.state = state;
    this.since = Date.now();
    this.opts.onStatus();
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /**
   * The relay closed us for another connection with our token. Taking the endpoint straight back
   * would close theirs, and so on for ever (and this relay forgets whoever it replaces): instead
   * wait, look whether it is free again (the relay knows no connection for it), and only then connect.
   */
  private onReplaced(failure: EndpointFailure): void {
    const first = this.replaced === undefined;
    // It closed us as the relay does: a relay, maybe under a path of a proxy's; it can be asked from now on.
    if (this.opts.connection.relayCheckMs > 0) this.callUrl ??= relayCallUrl(this.opts.endpoint.url, { anyPath: true });
    const { relayCheckMs, reconnectMaxMs } = this.opts.connection;
    const cap = Math.max(relayCheckMs, reconnectMaxMs);
    // Longer than the first check of the connection that replaced us, which then finds out first whether the relay forgot it.
    const firstWait = Math.min(
      FIRST_REPLACED_WAIT_MS,
      Math.round(1.5 * Math.min(EARLY_RELAY_CHECKS_MS[0] as number, relayCheckMs || Infinity)),
    );
    const waitMs = first ? firstWait : Math.min(cap, (this.replaced as { waitMs: number }).waitMs * 2);
    this.replaced = { since: this.replaced?.since ?? Date.now(), waitMs };
    this.otherSeenAt = Date.now();
    const copy = this.opts.otherCopy?.();
    const described = replacedBy(failure, copy);
    this.lastFailure = described;
    this.failures = 0;
    if (first)
      this.opts.log.warn(
        `${failureLine(described)}; waiting for it to let go instead of taking the endpoint back (two connections would push each other out)`,
        described.problem,
      );
    this.retryAt = Date.now() + waitMs;
    this.setState('waiting');
    this.retryTimer = setTimeout(() => this.lookAgain(), waitMs);
  }

  /** Another program holds the endpoint, and this link waits for it to let go. */
  private get waitsForOther(): boolean {
    return this.state === 'waiting' && this.lastFailure !== undefined && isReplaced(this.lastFailure);
  }

  /** After another program took the endpoint: connect if the relay knows nobody for it now, else wait longer. */
  private lookAgain(): void {
    this.clearRetry();
    const failure = this.lastFailure;
    // Our other copy keeps it: taking it back would start the two pushing each other out (it hears
    // when the relay forgets it, and reconnects by itself). When it stops, the fleet wakes this link.
    if (failure && this.opts.yieldTo?.()) {
      this.onReplaced(failure);
      return;
    }
    void this.askRelay().then((verdict) => {
      if (!this.running || this.socket || this.retryTimer || !this.waitsForOther) return;
      if (verdict === 'other' && failure) {
        this.onReplaced(failure);
        return;
      }
      this.opts.log.info(
        verdict === 'nobody'
          ? 'the other program no longer holds the endpoint: connecting again'
          : 'connecting again (the server cannot say whether the other program still holds the endpoint)',
        problem('endpoint.free'),
      );
      this.connect();
    });
  }

  /** Asks a self-hosted relay whether xiaozhi's messages still come to this connection ('unsupported': nothing to ask). */
  private askRelay(): Promise<RelayVerdict> {
    const callUrl = this.callUrl;
    if (!callUrl || this.relayUnanswered) return Promise.resolve('unsupported');
    return checkRelay({
      callUrl,
      timeoutMs: Math.min(10_000, this.opts.connection.connectTimeoutMs),
      watch: (nonce) => {
        const watching = { nonce, seen: false };
        this.watching = watching;
        return {
          seen: () => watching.seen,
          done: () => {
            if (this.watching === watching) this.watching = undefined;
          },
        };
      },
    }).then((verdict) => {
      // A relay's xiaozhi side that refuses us will refuse again: not asked any more.
      if (verdict === 'unsupported') this.relayUnanswered = true;
      return verdict;
    });
  }

  /** The next check of a connected relay link: soon after connecting, then every `relayCheckMs`. */
  private scheduleRelayCheck(): void {
    if (this.relayTimer) clearTimeout(this.relayTimer);
    this.relayTimer = undefined;
    const configured = this.opts.connection.relayCheckMs;
    if (!this.callUrl || this.relayUnanswered || configured <= 0) return;
    const every = Date.now() - this.otherSeenAt < AFTER_OTHER_FOR_MS ? Math.min(configured, AFTER_OTHER_CHECK_MS) : configured;
    const delay = Math.min(every, EARLY_RELAY_CHECKS_MS[this.relayChecks] ?? every);
    this.relayTimer = setTimeout(() => this.checkRelayNow(), delay);
  }

  private checkRelayNow(): void {
    if (this.relayTimer) clearTimeout(this.relayTimer);
    this.relayTimer = undefined;
    const socket = this.socket;
    if (!socket || !this.callUrl || this.relayUnanswered) return;
    void this.askRelay().then((verdict) => {
      if (socket !== this.socket || !this.running || this.state !== 'connected') return;
      this.relayChecks++;
      if (verdict === 'nobody') {
        // The relay drops the agent whenever a connection it replaced closes: ours stays open, xiaozhi gets "工具端未连接".
        this.opts.log.warn(
          'the self-hosted relay no longer routes xiaozhi to this connection (it forgets an endpoint when another connection to it closes): connecting again so xiaozhi gets the tools',
          problem('endpoint.forgotten'),
        );
        this.dropAndConnect(socket);
        return;
      }
      if (verdict === 'other') {
        // Another program holds it, though the relay never closed us: as if it had replaced us.
        this.dropSocket(socket);
        this.onReplaced(heldByAnother());
        return;
      }
      if (verdict === 'us') this.rejoinMs = 0;
      if (verdict === 'us' && this.replaced) {
        this.replaced = undefined;
        this.opts.log.info('the endpoint is ours again: xiaozhi reaches this connection', problem('endpoint.oursAgain'));
      }
      this.scheduleRelayCheck();
    });
  }

  /**
   * Closes this socket and connects afresh, once its close is through: the relay unregisters the
   * agent when a connection of it closes, whichever one it knows, so a new connection made before
   * the old one's close was handled would be forgotten too. Each forgotten connection in a row
   * waits longer before the next.
   */
  private dropAndConnect(socket: WebSocket): void {
    const closed = new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      setTimeout(resolve, 2000).unref();
    });
    this.dropSocket(socket);
    this.rejoinMs = Math.min(this.opts.connection.reconnectMaxMs * 4, this.rejoinMs === 0 ? 250 : this.rejoinMs * 2);
    const wait = this.rejoinMs;
    this.setState('connecting');
    void closed.then(() => {
      if (!this.running || this.socket) return;
      // Asked again just before connecting: a connection registered meanwhile (another copy's) would be replaced, and so on.
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        void this.askRelay().then((verdict) => {
          if (!this.running || this.socket || this.retryTimer) return;
          if (verdict === 'other') this.onReplaced(heldByAnother());
          else this.connect();
        });
      }, wait);
    });
  }

  private dropSocket(socket: WebSocket): void {
    this.detach(false);
    socket.close(1000, 'reconnecting');
    setTimeout(() => socket.terminate(), 2000).unref();
  }

  private connect(): void {
    this.clearRetry();
    if (!this.running) return;
    const { endpoint, connection, log } = this.opts;
    this.setState('connecting');
    const url = redactUrl(endpoint.url);
    log.info(`connecting to ${url}`, problem('endpoint.connecting', { url }));
    let socket: WebSocket;
    try {
      socket = new WebSocket(endpoint.url, {
        handshakeTimeout: connection.connectTimeoutMs,
        perMessageDeflate: false,
        maxPayload: this.opts.maxIncomingBytes,
        // Invalid UTF-8 in one text frame would close the whole connection (1007); it is decoded
        // leniently instead and then fails JSON parsing like any other malformed frame.
        skipUTF8Validation: true,
      });
    } catch (error) {
      this.scheduleRetry(socketFailed(error, endpoint.url));
      return;
    }
    this.socket = socket;
    this.socketFailure = undefined;
    const raw = upgradedSocket(socket);
    // ws's handshakeTimeout is the socket's idle time: an answer trickling in a byte at a time never reaches it.
    const handshake = setTimeout(() => {
      if (socket !== this.socket || socket.readyState !== WebSocket.CONNECTING) return;
      this.socketFailure ??= socketFailed(new Error('Opening handshake has timed out'), endpoint.url);
      socket.terminate();
    }, connection.connectTimeoutMs);
    handshake.unref();
    socket.once('open', () => clearTimeout(handshake));
    socket.once('close', () => clearTimeout(handshake));
    socket.on('open', () => this.onOpen(socket, raw()));
    socket.on('error', (error: Error & { code?: string }) => {
      // The first error is the cause; later ones are consequences of tearing the socket down.
      this.socketFailure ??=
        error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? tooBig(this.opts.maxIncomingBytes) : socketFailed(error, endpoint.url);
    });
    socket.on('unexpected-response', (_request, response) => {
      this.socketFailure = refusedWith(response.statusCode ?? 0, response.statusMessage);
      socket.terminate();
    });
    socket.on('pong', () => this.onAlive());
    socket.on('ping', () => this.onAlive());
    socket.on('message', (data) => {
      this.onAlive();
      const watching = this.watching;
      // A relay check's ping reached this connection (the relay routes xiaozhi to us).
      if (watching && !watching.seen && Buffer.isBuffer(data) && data.includes(watching.nonce)) watching.seen = true;
    });
    socket.on('close', (code, reasonBuffer) => {
      if (socket !== this.socket) return;
      const closed = closedWith(code, reasonBuffer.toString());
      const failure = this.socketFailure ?? closed;
      const wasConnected = this.connectedAt > 0;
      const upFor = wasConnected ? Date.now() - this.connectedAt : 0;
      const wasInitialized = this.session?.initialized === true;
      // Lost, its calls go on as tasks; closed because the link stops, they stop with it.
      this.detach(true, this.running);
      if (!this.running) return;
      // Held a good while: another program that took it once before is history.
      if (wasConnected && upFor >= connection.stableAfterMs) this.replaced = undefined;
      if (isReplaced(closed)) {
        this.onReplaced(closed);
        return;
      }
      if (wasConnected)
        log.warn(
          `${failureLine(closed)} after ${formatDuration(upFor)}`,
          problem('log.closedAfter', { seconds: (upFor / 1000).toFixed(1) }),
          closed.problem,
        );
      // The endpoint works if it stayed up a while, or if the other side set up a session that
      // lasted a moment: start the backoff over. (A session closed at once counts as a failure, so
      // an endpoint that accepts and drops in a loop is not hammered.)
      if (wasConnected && (upFor >= connection.stableAfterMs || (wasInitialized && upFor >= WORKING_SESSION_MS))) {
        this.backoff.reset();
        this.failures = 0;
      }
      this.scheduleRetry(failure);
    });
  }

  private onOpen(socket: WebSocket, raw: Corkable | undefined): void {
    const { endpoint, log, maxMessageBytes, version } = this.opts;
    this.connectedAt = Date.now();
    this.lastFailure = undefined;
    const { longCalls, language } = this.opts;
    this.session = new EndpointSession(socket, {
      tools: this.opts.hub,
      caller: endpoint.name,
      owner: endpoint.id,
      log,
      maxMessageBytes,
      version,
      longCalls,
      ...(language ? { language } : {}),
      onToolsRead: () => this.opts.onStatus(),
      ...(raw ? { raw } : {}),
    });
    this.startHeartbeat(socket);
    log.info('connected', problem('endpoint.connected'));
    this.setState('connected');
    this.relayChecks = 0;
    this.scheduleRelayCheck();
  }

  /**
   * Dead-socket detection: a ping every interval; no pong (or any frame) within the timeout means
   * the connection is gone even if TCP has not noticed, so terminate and reconnect.
   */
  private startHeartbeat(socket: WebSocket): void {
    const { heartbeatIntervalMs } = this.opts.connection;
    this.heartbeatTimer = setInterval(() => this.checkAlive(socket), heartbeatIntervalMs);
  }

  /** A ping; no pong (or any frame) within the timeout means the socket is dead: terminate it. */
  private checkAlive(socket: WebSocket): void {
    const { heartbeatTimeoutMs } = this.opts.connection;
    if (this.pongTimer || socket.readyState !== WebSocket.OPEN) return;
    socket.ping();
    this.pongTimer = setTimeout(() => {
      this.pongTimer = undefined;
      const failure = noPong(heartbeatTimeoutMs);
      // The close that follows (1006) is our own doing: the silence is the cause.
      if (socket === this.socket) this.socketFailure ??= failure;
      this.opts.log.warn(`${failureLine(failure)}; the connection is dead`);
      socket.terminate();
    }, heartbeatTimeoutMs);
  }

  private onAlive(): void {
    if (this.pongTimer) clearTimeout(this.pongTimer);
    this.pongTimer = undefined;
  }

  /**
   * Drops every timer and listener of the current socket (nothing may leak across reconnects);
   * `terminate`: the socket too. `keepCalls`: calls in progress go on as tasks (the connection was
   * lost), rather than stop with it (the link was stopped).
   */
  private detach(terminate = true, keepCalls = true): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.pongTimer) clearTimeout(this.pongTimer);
    if (this.relayTimer) clearTimeout(this.relayTimer);
    this.heartbeatTimer = undefined;
    this.pongTimer = undefined;
    this.relayTimer = undefined;
    this.session?.close(keepCalls);
    this.session = undefined;
    this.connectedAt = 0;
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.removeAllListeners('open');
      socket.removeAllListeners('message');
      socket.removeAllListeners('pong');
      socket.removeAllListeners('ping');
      socket.removeAllListeners('unexpected-response');
      socket.removeAllListeners('close');
      // Keep one error listener: an error after detaching must not crash the process.
      socket.removeAllListeners('error');
      socket.on('error', () => undefined);
      if (terminate && (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN)) socket.terminate();
    }
  }

  private scheduleRetry(failure: EndpointFailure): void {
    if (!this.running) return;
    this.failures++;
    this.lastFailure = failure;
    // A refused token stays refused: try again at the cap (a minute by default), not 20 times in 5 s.
    const next = this.backoff.next();
    const delay = needsTheUser(failure) ? Math.max(next, this.opts.connection.reconnectMaxMs) : next;
    const seconds = (delay / 1000).toFixed(1);
    // With its problem and cause, so the window and the CLI word it in their reader's language.
    this.opts.log.warn(`${failureLine(failure)}; retrying in ${seconds} s`, problem('endpoint.retrying', { seconds }), failure.problem);
    this.retryAt = Date.now() + delay;
    this.setState('waiting');
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
