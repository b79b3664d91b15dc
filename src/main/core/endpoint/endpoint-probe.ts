import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import WebSocket from 'ws';
import type { EndpointTest } from '../../../shared/endpoint-test';
import type { ToolHub } from '../hub/tool-hub';
import type { Logger } from '../logs/log-book';
import { redactText } from '../logs/redact';
import { closedWith, failureLine, refusedWith, socketFailed, type EndpointFailure } from './endpoint-failure';
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
}

/**
 * "Test connection": connects once, the way a link does, and reports each step: the endpoint
 * answered, it took the token, xiaozhi asked for the tool list (and how many it got), and the time.
 * It serves the real tool list, then closes; the endpoint's own link is not touched.
 */
export function probeEndpoint(opts: ProbeOptions): Promise<EndpointTest> {
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
      const text = result.errorText ? redactText(result.errorText, [opts.url]) : undefined;
      opts.log.info(
        `connection test: ${result.reachable ? 'reachable' : 'not reachable'}, ${result.accepted ? 'token accepted' : 'token not accepted'}, ${result.toolsListed !== undefined ? `${result.toolsListed} tools listed` : 'tools not listed'}, ${durationMs} ms${text ? ` (${text})` : ''}`,
      );
      resolve({ ...result, ...(text ? { errorText: text } : {}), durationMs, waitedSeconds });
    };
    try {
      socket = new WebSocket(opts.url, { handshakeTimeout: opts.connectTimeoutMs, perMessageDeflate: false });
    } catch (error) {
      finish({ reachable: false, accepted: false, ...failed(socketFailed(error, opts.url)) });
      return;
    }
    socket.on('unexpected-response', (_request, response) =>
      finish({ reachable: true, accepted: false, ...failed(refusedWith(response.statusCode ?? 0, response.statusMessage)) }),
    );
    socket.on('error', (error) => finish({ reachable: false, accepted: false, ...failed(socketFailed(error, opts.url)) }));
    socket.on('close', (code, reason) => finish({ reachable: true, accepted: true, ...failed(closedWith(code, reason.toString())) }));
    socket.on('open', () => {
      const ws = socket as WebSocket;
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
        if (listed !== undefined && 'id' in message && message.id === listed)
          finish({ reachable: true, accepted: true, toolsListed: opts.hub.summary().toolCount });
      };
      server.connect(transport).catch(() => undefined);
      timer = setTimeout(() => finish({ reachable: true, accepted: true }), opts.listWaitMs);
    });
  });
}
