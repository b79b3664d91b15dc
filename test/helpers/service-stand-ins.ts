import http from 'node:http';
import { once } from 'node:events';

/**
 * Stand-ins on 127.0.0.1 for the platforms web services reach, each answering the request and
 * response shapes of its public documentation, including its error shapes and its answer to a
 * wrong token:
 * - Coze: `POST /v1/workflow/run`, Bearer PAT, `{ workflow_id, parameters }` → `{ code, msg, data }`
 *   with `data` a JSON string (coze.cn developer guide "workflow_run"); code 4100 for a bad token.
 * - Dify: `GET /v1/parameters` → `user_input_form`; `POST /v1/workflows/run` and `/v1/chat-messages`
 *   blocking → `{ workflow_run_id, task_id, data: { status, outputs, error } }` / `{ answer }`;
 *   errors `{ code, message, status }` (docs.dify.ai API reference).
 * - n8n: a production webhook `POST /webhook/<path>` with header auth; 403 "Authorization data is
 *   wrong!" and 404 `{ code, message, hint }` for a webhook not registered (docs.n8n.io Webhook node).
 * - Home Assistant: `GET /api/services`, `POST /api/services/<domain>/<service>`, `GET /api/states`,
 *   Bearer long-lived token, 401 "401: Unauthorized" (developers.home-assistant.io REST API).
 * - A petstore-style OpenAPI 3.0 document in YAML with `$ref`s, its API under `/api/v1` (API key header).
 * - A plain web API with a same-origin and a cross-origin redirect.
 */

export const SECRETS = {
  coze: 'pat_COZE_SECRET_0123456789abcdef',
  dify: 'app-DIFY-SECRET-0123456789abcdef',
  n8n: 'n8n-HEADER-SECRET-0123456789',
  ha: 'eyJhbGciOiJIUzI1NiJ9.HA-LONG-LIVED-SECRET-0123456789',
  petstore: 'pet-KEY-SECRET-0123456789abcdef',
  weather: 'wx-KEY-SECRET-0123456789abcdef',
} as const;

export const COZE_WORKFLOW = '7300000000000000001';

export const PETSTORE_YAML = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
servers:
  - url: /api/v1
security:
  - api_key: []
paths:
  /pets:
    get:
      operationId: listPets
      summary: List the pets in the store
      parameters:
        - $ref: '#/components/parameters/Limit'
      responses:
        '200':
          description: the pets
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Pet'
    post:
      operationId: addPet
      summary: Add a pet to the store
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/NewPet'
      responses:
        '201':
          description: the pet
  /pets/{petId}:
    parameters:
      - $ref: '#/components/parameters/PetId'
    get:
      operationId: getPetById
      summary: Tell one pet by its id
      responses:
        '200':
          description: the pet
        '404':
          description: no such pet
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Error'
components:
  parameters:
    PetId:
      name: petId
      in: path
      required: true
      description: The id of the pet
      schema:
        type: integer
    Limit:
      name: limit
      in: query
      schema:
        type: integer
        maximum: 100
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name:
          type: string
        kind:
          $ref: '#/components/schemas/Kind'
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - type: object
          properties:
            id:
              type: integer
    Kind:
      type: string
      enum: [cat, dog, fish]
    Error:
      type: object
      properties:
        message:
          type: string
  securitySchemes:
    api_key:
      type: apiKey
      in: header
      name: X-API-Key
`;

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export class ServiceStandIns {
  readonly seen: SeenRequest[] = [];
  private pets = [
    { id: 1, name: 'Rex', kind: 'dog' },
    { id: 2, name: 'Tom', kind: 'cat' },
  ];

  private constructor(
    private readonly server: http.Server,
    private readonly other: http.Server,
  ) {}

  static async start(): Promise<ServiceStandIns> {
    const ready: { self?: ServiceStandIns } = {};
    const server = http.createServer((req, res) => void ready.self?.handle(req, res));
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
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const text = (status: number, value: string) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(value);
    };
    const bearer = (secret: string) => req.headers.authorization === `Bearer ${secret}`;
    const p = url.pathname;
    const b = (body ?? {}) as Record<string, unknown>;

    // Coze
    if (p === '/coze/v1/workflow/run' && req.method === 'POST') {
      if (!bearer(SECRETS.coze)) return json(401, { code: 4100, msg: 'authentication is invalid' });
      if (b.workflow_id !== COZE_WORKFLOW) return json(200, { code: 4200, msg: 'Workflow not found or not published' });
      const city = (b.parameters as Record<string, unknown> | undefined)?.city;
      return json(200, {
        code: 0,
        msg: 'Success',
        data: JSON.stringify({ output: `Sunny and 23 degrees in ${city}` }),
        debug_url: 'https://www.coze.cn/work_flow?execute_id=1',
        usage: { input_count: 10, output_count: 8, token_count: 18 },
      });
    }

    // Dify
    if (p.startsWith('/dify/v1/')) {
      if (!bearer(SECRETS.dify)) return json(401, { code: 'unauthorized', message: 'Access token is invalid', status: 401 });
      if (p === '/dify/v1/parameters')
        return json(200, {
          opening_statement: '',
          user_input_form: [
            { 'text-input': { label: 'City', variable: 'city', required: true, default: '' } },
            { select: { label: 'Unit', variable: 'unit', required: false, options: ['celsius', 'fahrenheit'] } },
            { file: { label: 'Photo', variable: 'photo', required: false } },
          ],
          file_upload: { image: { enabled: false } },
        });
      if (p === '/dify/v1/workflows/run') {
        const inputs = (b.inputs ?? {}) as Record<string, unknown>;
        if (b.response_mode !== 'blocking' || typeof b.user !== 'string')
          return json(400, { code: 'invalid_param', message: 'response_mode and user are required', status: 400 });
        const failed = inputs.city === 'Atlantis';
        return json(200, {
          workflow_run_id: 'run-1',
          task_id: 'task-1',
          data: {
            id: 'run-1',
            workflow_id: 'wf-1',
            status: failed ? 'failed' : 'succeeded',
            outputs: failed ? null : { text: `It will rain in ${inputs.city}` },
            error: failed ? 'The weather node could not find the city' : null,
            elapsed_time: 0.3,
            total_tokens: 12,
            total_steps: 3,
            created_at: 1,
            finished_at: 2,
          },
        });
      }
      if (p === '/dify/v1/chat-messages')
        return json(200, { event: 'message', message_id: 'm1', conversation_id: 'c1', mode: 'chat', answer: `You said: ${b.query}` });
      return json(404, { code: 'not_found', message: 'Not found', status: 404 });
    }

    // n8n
    if (p.startsWith('/n8n/webhook/')) {
      if (p !== '/n8n/webhook/lights')
        return json(404, {
          code: 404,
          message: `The requested webhook "${req.method} ${p.slice('/n8n/webhook/'.length)}" is not registered.`,
          hint: "The workflow must be active for a production URL to run successfully. You can activate the workflow using the toggle in the top-right of the editor. Note that unlike test URL calls, production URL calls aren't shown on the canvas (only in the executions list)",
        });
      if (req.headers['x-n8n-key'] !== SECRETS.n8n) return text(403, 'Authorization data is wrong!');
      return json(200, { reply: `Turned the ${b.room} lights ${b.state}` });
    }

    // Home Assistant
    if (p.startsWith('/ha/api/')) {
      if (!bearer(SECRETS.ha)) return text(401, '401: Unauthorized');
      if (p === '/ha/api/' && req.method === 'GET') return json(200, { message: 'API running.' });
      if (p === '/ha/api/services' && req.method === 'GET')
        return json(200, [
          {
            domain: 'light',
            services: {
              turn_on: {
                name: 'Turn on',
                description: 'Turns on one or more lights',
                fields: { brightness: { name: 'Brightness', description: 'From 0 to 255', selector: { number: { min: 0, max: 255 } } } },
                target: { entity: [{ domain: ['light'] }] },
              },
            },
          },
        ]);
      if (p === '/ha/api/services/light/turn_on' && req.method === 'POST') {
        if (b.entity_id !== 'light.kitchen') return json(400, { message: `Entity ${String(b.entity_id)} not found` });
        return json(200, [
          { entity_id: 'light.kitchen', state: 'on', attributes: { friendly_name: 'Kitchen light', brightness: b.brightness } },
        ]);
      }
      if (p === '/ha/api/states')
        return json(200, [
          { entity_id: 'light.kitchen', state: 'off', attributes: { friendly_name: 'Kitchen light' } },
          {
            entity_id: 'sensor.living_room_temperature',
            state: '21.5',
            attributes: { friendly_name: 'Living room temperature', unit_of_measurement: '°C' },
          },
        ]);
      return json(404, { message: 'Not found' });
    }

    // OpenAPI petstore
    if (p === '/api/openapi.yaml') return text(200, PETSTORE_YAML);
    if (p.startsWith('/api/v1/')) {
      if (req.headers['x-api-key'] !== SECRETS.petstore) return json(401, { message: 'Invalid API key' });
      if (p === '/api/v1/pets' && req.method === 'GET') return json(200, this.pets.slice(0, Number(url.searchParams.get('limit') ?? 100)));
      if (p === '/api/v1/pets' && req.method === 'POST') {
        const pet = { id: this.pets.length + 1, ...b };
        this.pets.push(pet as (typeof this.pets)[number]);
        return json(201, pet);
      }
      const one = /^\/api\/v1\/pets\/(\d+)$/.exec(p);
      const pet = one ? this.pets.find((x) => x.id === Number(one[1])) : undefined;
      if (pet) return json(200, pet);
      return json(404, { message: 'No pet has this id' });
    }

    // A plain web API
    if (p === '/weather') {
      if (req.headers['x-api-key'] !== SECRETS.weather) return json(403, { error: { message: 'API key missing or wrong' } });
      return json(200, { data: { city: url.searchParams.get('city'), temp: 21 } });
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
    return json(404, { message: 'Not found' });
  }
}
