import { json, record, type StandInRequest, text } from './stand-in-http';

/**
 * OpenAPI documents as they are written, from the specification (OAI/OpenAPI-Specification):
 * - versions/3.0.3.md, Schema Object: `nullable: true` adds null to the `type` given beside it;
 *   `exclusiveMinimum`/`exclusiveMaximum` are booleans beside `minimum`/`maximum` (JSON Schema Wright
 *   draft 00); `readOnly` properties "SHOULD NOT be sent as part of the request" (a required one is
 *   required in responses only); `example` holds one example; tags (Tag Object) group operations, and an
 *   operation has `summary`, `description` and `tags`.
 * - versions/3.1.0.md: schemas are JSON Schema 2020-12 (`type: [string, "null"]`, `examples`).
 * And GitHub's own document (the npm package @octokit/openapi, generated/api.github.com.json: OpenAPI
 * 3.0.3, 13 MB, 1,223 operations in 47 tags, `servers: [{url: https://api.github.com}]`, no
 * `securitySchemes`: a token goes in an Authorization header the document never names).
 */

export const PETSTORE_YAML = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
servers:
  - url: /api/v1
security:
  - api_key: []
tags:
  - name: pets
    description: Everything about the pets
  - name: weather
    description: 天气
paths:
  /pets:
    get:
      operationId: listPets
      summary: List the pets in the store
      tags: [pets]
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
      tags: [pets]
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
      tags: [pets]
      responses:
        '200':
          description: the pet
        '404':
          description: no such pet
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Error'
    patch:
      operationId: updatePet
      summary: Change a pet
      tags: [pets]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [id]
              properties:
                id:
                  type: integer
                  readOnly: true
                nickname:
                  type: string
                  nullable: true
                age:
                  type: integer
                  minimum: 0
                  maximum: 50
                  exclusiveMaximum: true
      responses:
        '200':
          description: the pet
  /forecast:
    get:
      operationId: getForecast
      summary: Get the forecast
      description: 查询城市的天气预报。Answers the next days' weather for a city.
      tags: [weather]
      security: []
      parameters:
        - name: city
          in: query
          required: true
          schema:
            type: string
      responses:
        '200':
          description: the forecast
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
          example: Rex
        kind:
          $ref: '#/components/schemas/Kind'
        age:
          type: integer
          minimum: 0
          maximum: 50
          exclusiveMaximum: true
        nickname:
          type: string
          nullable: true
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - type: object
          required: [id]
          properties:
            id:
              type: integer
              readOnly: true
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

/** GitHub's document's tags (47, as in @octokit/openapi's api.github.com.json), used by the generated one. */
const GITHUB_TAGS = [
  'actions',
  'activity',
  'apps',
  'billing',
  'checks',
  'classroom',
  'code-scanning',
  'code-security',
  'codes-of-conduct',
  'codespaces',
  'copilot',
  'credentials',
  'dependabot',
  'dependency-graph',
  'desktop',
  'emojis',
  'enterprise-team-memberships',
  'enterprise-teams',
  'gists',
  'git',
  'gitignore',
  'hosted-compute',
  'interactions',
  'issues',
  'licenses',
  'markdown',
  'merge-queue',
  'meta',
  'migrations',
  'oidc',
  'orgs',
  'packages',
  'private-registries',
  'projects',
  'pulls',
  'rate-limit',
  'reactions',
  'repos',
  'search',
  'secret-scanning',
  'security-advisories',
  'teams',
  'users',
  'agent-tasks',
  'campaigns',
  'hosted-runners',
  'announcement',
];

/**
 * A document shaped as GitHub's is (OpenAPI 3.0.3, `operations` operations spread over its 47 tags,
 * long descriptions, large shared examples, one server and no security schemes), about `megabytes` MB
 * as JSON: what a large real document costs to read, without shipping GitHub's.
 */
export function githubLikeDocument(operations = 1223, megabytes = 13): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const examples: Record<string, unknown> = {};
  const perOperation = Math.floor((megabytes * 1024 * 1024) / operations);
  for (let i = 0; i < operations; i++) {
    const tag = GITHUB_TAGS[i % GITHUB_TAGS.length] as string;
    const method = ['get', 'post', 'patch', 'delete', 'put'][i % 5] as string;
    const path = `/${tag}/{owner}/{repo}/item-${Math.floor(i / 5)}`;
    examples[`example-${i}`] = {
      value: { id: i, node_id: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5', text: 'x'.repeat(Math.max(0, perOperation - 900)) },
    };
    (paths[path] ??= {})[method] = {
      summary: `${method === 'get' ? 'Get' : method === 'post' ? 'Create' : method === 'patch' ? 'Update' : method === 'put' ? 'Set' : 'Delete'} ${tag} item ${i}`,
      description: `Does what ${tag} item ${i} needs. Works with a fine-grained token that has the ${tag} permission.`,
      tags: [tag],
      operationId: `${tag}/item-${i}`,
      externalDocs: { description: 'API method documentation', url: `https://docs.github.com/rest/${tag}#item-${i}` },
      parameters: [
        { name: 'owner', in: 'path', required: true, description: 'The account owner of the repository.', schema: { type: 'string' } },
        { name: 'repo', in: 'path', required: true, description: 'The name of the repository.', schema: { type: 'string' } },
        {
          name: 'per_page',
          in: 'query',
          description: 'The number of results per page (max 100).',
          schema: { type: 'integer', default: 30 },
        },
      ],
      ...(method === 'post' || method === 'patch'
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['title'],
                    properties: { title: { type: 'string' }, body: { type: 'string', nullable: true } },
                  },
                },
              },
            },
          }
        : {}),
      responses: {
        '200': {
          description: 'Response',
          content: { 'application/json': { examples: { default: { $ref: `#/components/examples/example-${i}` } } } },
        },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'GitHub v3 REST API', version: '1.1.4', description: "GitHub's v3 REST API." },
    tags: GITHUB_TAGS.map((name) => ({ name, description: `The ${name} API` })),
    servers: [{ url: 'https://api.github.com' }],
    externalDocs: { description: 'GitHub v3 REST API', url: 'https://docs.github.com/rest/' },
    paths,
    components: { schemas: {}, examples },
  };
}

export class OpenApiStandIn {
  private pets = [
    { id: 1, name: 'Rex', kind: 'dog' },
    { id: 2, name: 'Tom', kind: 'cat' },
  ];
  private bigDocument: string | undefined;

  constructor(private readonly petKey: string) {}

  /** Serves a GitHub-like document at /api/github.json (generated once). */
  serveBigDocument(document: Record<string, unknown>): void {
    this.bigDocument = JSON.stringify(document);
  }

  handle(req: StandInRequest): void {
    const { res, path } = req;
    if (path === '/api/openapi.yaml') return text(res, 200, PETSTORE_YAML, 'application/yaml');
    if (path === '/api/github.json' && this.bigDocument) return text(res, 200, this.bigDocument, 'application/json');
    if (path === '/api/huge.json') {
      // A document far past any bound (a dereferenced API of 70 MB): its length says so before its body does.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(70 * 1024 * 1024) });
      res.write('{"openapi":"3.0.3","paths":{');
      return void setTimeout(() => res.destroy(), 50);
    }
    if (path === '/api/page.html')
      return text(res, 200, '<!doctype html><title>Swagger UI</title><div id="swagger-ui"></div>', 'text/html');
    if (path.startsWith('/gh/'))
      // GitHub answers what was asked; a request without a token is refused as its API does.
      return req.headers.authorization
        ? json(res, 200, { path: path.slice(3), method: req.method, body: req.body ?? null })
        : json(res, 401, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' });
    if (path === '/api/v1/forecast') return json(res, 200, { city: req.query.get('city'), forecast: 'rain' });
    if (req.headers['x-api-key'] !== this.petKey) return json(res, 401, { message: 'Invalid API key' });
    if (path === '/api/v1/pets' && req.method === 'GET') return json(res, 200, this.pets.slice(0, Number(req.query.get('limit') ?? 100)));
    if (path === '/api/v1/pets' && req.method === 'POST') {
      const pet = { id: this.pets.length + 1, ...record(req.body) } as (typeof this.pets)[number];
      this.pets.push(pet);
      return json(res, 201, pet);
    }
    const one = /^\/api\/v1\/pets\/(\d+)$/.exec(path);
    const pet = one ? this.pets.find((x) => x.id === Number(one[1])) : undefined;
    if (pet && req.method === 'PATCH') {
      Object.assign(pet, record(req.body));
      return json(res, 200, pet);
    }
    if (pet) return json(res, 200, pet);
    return json(res, 404, { message: 'No pet has this id' });
  }
}
