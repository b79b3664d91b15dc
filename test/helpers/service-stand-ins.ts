import { once } from 'node:events';
import http from 'node:http';

import { COZE_WORKFLOWS, CozeStandIn } from './stand-ins/coze-stand-in';
import { DIFY_KEYS, DifyStandIn } from './stand-ins/dify-stand-in';
import { HomeAssistantStandIn } from './stand-ins/home-assistant-stand-in';
import { N8nStandIn } from './stand-ins/n8n-stand-in';
import { OpenApiStandIn } from './stand-ins/openapi-stand-in';
import { json, type StandInRequest } from './stand-ins/stand-in-http';

/**
 * Stand-ins on 127.0.0.1 for the platforms web services reach, one port, each under its prefix
 * (`/coze`, `/dify`, `/n8n`, `/ha`, `/api` and `/gh` for OpenAPI documents): each answers as the
 * platform's own source, tests or developer guide say it does (see each file under stand-ins/, which
 * cites them), including its errors and its answer to a wrong token. Plus a plain web API with a
 * same-origin and a cross-origin redirect, and a path that never answers.
 */

export { COZE_WORKFLOWS, DIFY_KEYS };
export { githubLikeDocument, PETSTORE_YAML } from './stand-ins/openapi-stand-in';

export const SECRETS = {
  coze: 'pat_COZE_SECRET_0123456789abcdef',
  dify: DIFY_KEYS.workflow,
  n8n: 'n8n-HEADER-SECRET-0123456789',
  ha: 'eyJhbGciOiJIUzI1NiJ9.HA-LONG-LIVED-SECRET-0123456789',
  petstore: 'pet-KEY-SECRET-0123456789abcdef',
  weather: 'wx-KEY-SECRET-0123456789abcdef',
} as const;

export const COZE_WORKFLOW = COZE_WORKFLOWS.weather;

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export class ServiceStandIns {
  readonly seen: SeenRequest[] = [];
  readonly coze = new CozeStandIn(SECRETS.coze);
  readonly dify = new DifyStandIn();
  readonly n8n = new N8nStandIn(SECRETS.n8n);
  readonly ha = new HomeAssistantStandIn(SECRETS.ha);
  readonly openapi = new OpenApiStandIn(SECRETS.petstore);

  private constructor(
    private readonly server: http.Server,
    private readonly other: http.Server,
  ) {}

  static async start(): Promise<ServiceStandIns> {
    const ready: { self?: ServiceStandIns } = {};
    const server = http.createServer((req, res) => {
      ready.self?.handle(req, res).catch(() => res.headersSent || res.writeHead(500).end());
    });
    // Another origin (another port), where a cross-origin redirect points.
    const other = http.createServer((req, res) => {
      ready.self?.seen.push({ method: req.method ?? '', path: `other:${req.url}`, headers: req.headers, body: undefined });
      res.end('{"stolen":true}');
    });
    server.listen(0, '127.0.0.1');
    other.listen(0, '127.0.0.1');
    await Promise.all([once(server, 'listening'), once(other, 'listening')]);
    ready.self = new ServiceStandIns(server, other);
    return ready.self;
  }

  get base(): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  get otherBase(): string {
    return `http://127.0.0.1:${(this.other.address() as { port: number }).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.other.closeAllConnections();
    await Promise.all([new Promise((r) => this.server.close(r)), new Promise((r) => this.other.close(r))]);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const url = new URL(req.url ?? '/', this.base);
    this.seen.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
    const below = (prefix: string): StandInRequest => ({
      method: req.method ?? 'GET',
      path: url.pathname.slice(prefix.length),
      query: url.searchParams,
      headers: req.headers,
      body,
      res,
    });
    const p = url.pathname;
    if (p.startsWith('/coze/')) return this.coze.handle(below('/coze'));
    if (p.startsWith('/dify/')) return this.dify.handle(below('/dify'));
    if (p.startsWith('/n8n/')) return this.n8n.handle(below('/n8n'));
    if (p.startsWith('/ha/')) return this.ha.handle(below('/ha'));
    if (p.startsWith('/api/') || p.startsWith('/gh/')) return this.openapi.handle(below(''));

    // A plain web API
    if (p === '/weather') {
      if (req.headers['x-api-key'] !== SECRETS.weather) return json(res, 403, { error: { message: 'API key missing or wrong' } });
      return json(res, 200, { data: { city: url.searchParams.get('city'), temp: 21 } });
    }
    if (p === '/moved') {
      res.writeHead(301, { location: `/weather${url.search}` });
      return void res.end();
    }
    if (p === '/away') {
      res.writeHead(302, { location: `${this.otherBase}/collect` });
      return void res.end();
    }
    if (p === '/slow') return; // never answers: a call times out
    return json(res, 404, { message: 'Not found' });
  }
}
