import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import WebSocket from 'ws';

import type { EndpointTest } from '../../../shared/endpoint-test';
import { isXiaozhiMe } from '../../../shared/endpoint-url';
import { problem } from '../../../shared/problem';
import type { ToolHub } from '../hub/tool-hub';
import type { Logger } from '../logs/log-book';
import { redactProblem, redactText } from '../logs/redact';
import { endpointUrlSecrets } from '../secrets/bridge-secrets';
import { closedWith, type EndpointFailure, failureLine, needsTheUser, refusedWith, socketFailed } from './endpoint-failure';
import { checkRelay, relayCallUrl, type RelayVerdict } from './relay-check';
import { WsServerTransport } from './ws-server-transport';

export interface ProbeOptions {
  url: string;
  hub: ToolHub;
  log: Logger;
  maxMessageBytes: () => number;
  version: string;
  connectTimeoutMs: number;
  /** How long to wait for the other side to ask for the tools once connected. */
  listWaitMs: number;
  /**
   * The endpoint's own link, when it is saved and connected: a self-hosted relay is asked through
   * it, since a second connection with its token would push it out (and the relay forget both).
   */
  link?: { relayVerdict(): Promise<RelayVerdict>; recheck(): void } | undefined;
}

/**
 * "Test connection": against xiaozhi.me, connects once, the way a link does (its broker lists the
 * tools at once). A self-hosted relay lists them only when a device talks, so it is also asked as
 * a device would ask it (`/call/`, as xiaozhi-esp32-server does): through the endpoint's own
 * connection when it is up, else through the test's. Another program holding the endpoint is said,
 * not pushed out.
 */
export async function probeEndpoint(opts: ProbeOptions): Promise<EndpointTest> {
  const callUrl = relayCallUrl(opts.url);
  if (!callUrl) return probeOnce(opts, undefined);
  const started = performance.now();
  const timeoutMs = Math.min(opts.connectTimeoutMs, 10_000);
  const verdict = opts.link
    ? await opts.link.relayVerdict()
    : await checkRelay({ callUrl, timeoutMs, watch: () => ({ seen: () => false, done: () => undefined }) });
  const base = { reachable: true, accepted: true, waitedSeconds: Math.round(opts.listWaitMs / 1000) };
  const elapsed = () => Math.round(performance.now() - started);
  if (verdict === 'us') {
    const listed = await listThroughRelay(callUrl, opts.version, opts.listWaitMs);
    // The person's tools, as the other way counts them: in search mode the list holds the 5 helpers that find them.
    const result = {
      ...base,
      ...listed,
      ...(listed.toolsListed !== undefined ? { userTools: userToolsOf(opts) } : {}),
      durationMs: elapsed(),
    };
    report(opts, result);
    return result;
  }
  if (verdict === 'other') {
    const result = {
      ...base,
      error: problem('endpoint.replaced', {}),
      errorText: 'another program is using this endpoint',
      durationMs: elapsed(),
    };
    report(opts, result);
    return result;
  }
  if (verdict === 'nobody' && opts.link) {
    // The relay forgot the endpoint's own connection: it connects again now.
    opts.link.recheck();
    const result = {
      ...base,
      error: problem('endpoint.forgotten'),
      errorText: 'the relay had forgotten this connection; it connects again',
      durationMs: elapsed(),
    };
    report(opts, result);
    return result;
  }
  // Nobody holds it (a connection of ours replaces nobody), or the relay cannot be asked.
  return probeOnce(opts, verdict === 'nobody' ? callUrl : undefined);
}

/**
 * What masks the URL's secrets in what the other side said: the URL tested may not be saved yet, so
 * the log's redaction does not know its token, and a relay's token is no JWT a pattern would catch
 * (a close reason or an HTTP status text may echo it).
 */
const urlSecrets = (url: string): string[] => [url, ...endpointUrlSecrets(url)];

/** The person's tools (the app's own left out), as the other pages count them. */
function userToolsOf(opts: ProbeOptions): number {
  const catalog = opts.hub.summary();
  return Math.max(0, catalog.toolCount - (catalog.appTools ?? 0));
}

/** What a test found, in one word the log's readers word (`log.connectionTest`'s reason). */
function testOutcome(result: Omit<EndpointTest, 'waitedSeconds'>): string {
  if (!result.reachable) return 'unreachable';
  if (!result.accepted) return 'refused';
  if (result.toolsListed !== undefined && result.userTools === 0) return 'listedNone';
  if (result.toolsListed !== undefined) return result.listedVia === 'relay' ? 'listedRelay' : 'listed';
  if (result.note) return 'deviceTalks';
  return result.error ? 'notListedBecause' : 'notListed';
}

/** The test's line in the log: the English for the log file, the outcome and its failure for the window and the CLI to word. */
function report(opts: ProbeOptions, result: Omit<EndpointTest, 'waitedSeconds'>): void {
  const text = result.errorText ? redactText(result.errorText, urlSecrets(opts.url)) : undefined;
  const outcome = problem('log.connectionTest', {
    reason: testOutcome(result),
    count: result.userTools ?? result.toolsListed ?? 0,
    seconds: (result.durationMs / 1000).toFixed(1),
  });
  opts.log.info(
    `connection test: ${result.reachable ? 'reachable' : 'not reachable'}, ${result.accepted ? 'token accepted' : 'token not accepted'}, ${result.toolsListed !== undefined ? `${result.toolsListed} tools listed${result.listedVia === 'relay' ? ' through the relay' : ''}` : result.note ? 'tools not listed (normal here: listed when a device talks)' : 'tools not listed'}, ${result.durationMs} ms${text ? ` (${text})` : ''}`,
    outcome,
    result.error,
  );
}

/**
 * Lists the tools through a relay's xiaozhi side as xiaozhi-esp32-server's client does
 * (mcp_endpoint_handler.py): initialize (id 1), initialized, tools/list (id 2), following nextCursor.
 */
function listThroughRelay(callUrl: string, version: string, waitMs: number): Promise<Pick<EndpointTest, 'toolsListed' | 'listedVia'>> {
  return new Promise((resolve) => {
    let count = 0;
    let settled = false;
    const socket = new WebSocket(callUrl, { handshakeTimeout: waitMs, perMessageDeflate: false, maxPayload: 16 * 1024 * 1024 });
    const finish = (listed: Pick<EndpointTest, 'toolsListed' | 'listedVia'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      if (socket.readyState === WebSocket.OPEN) socket.close(1000, 'connection test done');
      else socket.terminate();
      resolve(listed);
    };
    const timer = setTimeout(() => finish({}), waitMs);
    socket.on('error', () => finish({}));
    socket.on('close', () => finish({}));
    const send = (message: object) => socket.send(JSON.stringify(message));
    socket.on('open', () => {
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'xiaozhi-tray-test', version } },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized', params: {} });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    });
    let pages = 0;
    socket.on('message', (data) => {
      let message: { id?: unknown; result?: { tools?: unknown; nextCursor?: unknown } | null; error?: unknown };
      try {
        message = JSON.parse(data.toString()) as typeof message;
      } catch {
        return;
      }
      if (message.id !== 2) return;
      if (message.error || !message.result) {
        finish({});
        return;
      }
      count += Array.isArray(message.result.tools) ? message.result.tools.length : 0;
      const cursor = message.result.nextCursor;
      if (typeof cursor === 'string' && ++pages < 100) send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor } });
      else finish({ toolsListed: count, listedVia: 'relay' });
    });
  });
}

/**
 * Connects once, the way a link does, and reports each step: the endpoint answered, it took the
 * token, xiaozhi asked for the tool list (and how many it got), and the time. It serves the real
 * tool list, then closes; the endpoint's own link is not touched. With `callUrl` (a relay that
 * knows nobody for this endpoint), the list is asked for through it once connected.
 */
function probeOnce(opts: ProbeOptions, callUrl: string | undefined): Promise<EndpointTest> {
  const started = performance.now();
  const waitedSeconds = Math.round(opts.listWaitMs / 1000);
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let socket: WebSocket | undefined;
    let server: Server | undefined;
    let timer: NodeJS.Timeout | undefined;
    const failed = (failure: EndpointFailure) => ({ error: failure.problem, errorText: failureLine(failure) });
    const finish = (result: Omit<EndpointTest, 'durationMs' | 'waitedSeconds'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const durationMs = elapsed();
      void server?.close().catch(() => undefined);
      if (socket) {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        if (socket.readyState === WebSocket.OPEN) socket.close(1000, 'connection test done');
        else socket.terminate();
      }
      const secrets = urlSecrets(opts.url);
      const text = result.errorText ? redactText(result.errorText, secrets) : undefined;
      const error = result.error ? { error: redactProblem(result.error, (said) => redactText(said, secrets)) } : {};
      // Connected, not listed: normal for a self-hosted endpoint (it lists when a device talks), not for xiaozhi.me.
      const note =
        result.accepted && !result.error && result.toolsListed === undefined && !isXiaozhiMe(opts.url)
          ? { note: 'listsOnDeviceTalk' as const }
          : {};
      // "12 entries, the app's own included" read as a contradiction at 0: the person's tools are the count (issue 33).
      const mine = result.toolsListed !== undefined ? { userTools: userToolsOf(opts) } : {};
      const final = { ...result, ...mine, ...error, ...note, ...(text ? { errorText: text } : {}), durationMs, waitedSeconds };
      report(opts, final);
      resolve(final);
    };
    // Once open, it was reached: what fails then is the connection (a broken frame), not the way there.
    const failedWith = (error: Error) => {
      const opened = server !== undefined;
      const failure = socketFailed(error, opts.url);
      // A program that answered, though not as an endpoint does, was reached.
      const answered = opened || failure.problem.code === 'endpoint.notXiaozhi';
      finish({ reachable: answered, accepted: opened, ...failed(failure) });
    };
    try {
      socket = new WebSocket(opts.url, { handshakeTimeout: opts.connectTimeoutMs, perMessageDeflate: false });
    } catch (error) {
      finish({ reachable: false, accepted: false, ...failed(socketFailed(error, opts.url)) });
      return;
    }
    // ws's handshakeTimeout is the socket's idle time: an answer trickling in a byte at a time never reaches it.
    timer = setTimeout(() => failedWith(new Error('Opening handshake has timed out')), opts.connectTimeoutMs);
    socket.on('unexpected-response', (_request, response) =>
      finish({ reachable: true, accepted: false, ...failed(refusedWith(response.statusCode ?? 0, response.statusMessage)) }),
    );
    socket.on('error', failedWith);
    socket.on('close', (code, reason) => {
      const closed = closedWith(code, reason.toString());
      // Closed for its token (the relay accepts the socket first, then closes it 1008 "token解密失败"), or by policy
      // (1008 with another reason) before anything was asked: refused, not accepted.
      finish({ reachable: true, accepted: !needsTheUser(closed) && code !== 1008, ...failed(closed) });
    });
    socket.on('open', () => {
      const ws = socket as WebSocket;
      clearTimeout(timer);
      server = new Server({ name: 'xiaozhi-tray', version: opts.version }, { capabilities: { tools: { listChanged: true } } });
      let listed: string | number | undefined;
      server.setRequestHandler(ListToolsRequestSchema, (request, extra) => {
        listed = extra.requestId;
        return opts.hub.page(request.params?.cursor, JSON.stringify(extra.requestId));
      });
      server.onerror = (error) => opts.log.debug(`connection test: ${error.message}`);
      const transport = new WsServerTransport(ws, opts.log, opts.maxMessageBytes);
      // Answer first, then report (and close): the other side gets its list either way.
      transport.onsent = (message) => {
        if (listed !== undefined && 'id' in message && message.id === listed && !callUrl)
          finish({ reachable: true, accepted: true, toolsListed: opts.hub.summary().toolCount });
      };
      server.connect(transport).catch(() => undefined);
      timer = setTimeout(() => finish({ reachable: true, accepted: true }), opts.listWaitMs);
      // A relay lists only when a device talks: a device's session is made, once the relay has registered this connection.
      if (callUrl)
        void (async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          if (settled) return;
          const through = await listThroughRelay(callUrl, opts.version, opts.listWaitMs);
          if (through.toolsListed !== undefined) finish({ reachable: true, accepted: true, ...through });
        })();
    });
  });
}
