import http from 'node:http';

/**
 * A stand-in of the official MCP registry's public API on 127.0.0.1: `GET /v0/servers` with
 * `limit`/`cursor` paging, in the shape the registry answers (server.json plus `_meta`).
 */
export interface RegistryStandIn {
  url: string;
  requests: string[];
  /** Answer every request with this status from now on (0: serve normally). */
  failWith(status: number): void;
  close(): Promise<void>;
}

const official = (status = 'active', isLatest = true) => ({
  'io.modelcontextprotocol.registry/official': { status, isLatest, publishedAt: '2025-09-01T00:00:00Z' },
});

/** Registry entries of every kind the catalogue must handle (and some it must skip). */
export const registryServers = [
  {
    server: {
      name: 'io.github.example/weather',
      title: 'Example Weather',
      description: 'Weather forecasts for anywhere',
      version: '1.2.0',
      repository: { url: 'https://github.com/example/weather', source: 'github' },
      packages: [
        {
          registryType: 'npm',
          identifier: '@example/weather-mcp',
          version: '1.2.0',
          transport: { type: 'stdio' },
          environmentVariables: [{ name: 'WEATHER_API_KEY', description: 'Your key', isRequired: true, isSecret: true }],
        },
      ],
    },
    _meta: official(),
  },
  {
    server: {
      name: 'io.github.example/notes',
      description: 'Notes in a folder',
      version: '0.3.0',
      packages: [
        {
          registryType: 'pypi',
          identifier: 'notes-mcp',
          version: '0.3.0',
          transport: { type: 'stdio' },
          packageArguments: [
            { type: 'positional', valueHint: 'notes_dir', description: 'Folder of notes', isRequired: true, format: 'filepath' },
          ],
        },
      ],
    },
    _meta: official(),
  },
  {
    server: {
      name: 'com.example/remote',
      description: 'A hosted server',
      version: '2.0.0',
      websiteUrl: 'https://example.com/mcp-docs',
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://mcp.example.com/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer {token}', isSecret: true, isRequired: true, description: 'API token' }],
        },
      ],
    },
    _meta: official(),
  },
  // Already in the shipped list (same npm package): the shipped entry wins.
  {
    server: {
      name: 'io.github.modelcontextprotocol/memory',
      description: 'Memory',
      version: '1.0.0',
      packages: [
        { registryType: 'npm', identifier: '@modelcontextprotocol/server-memory', version: '1.0.0', transport: { type: 'stdio' } },
      ],
    },
    _meta: official(),
  },
  // Not runnable here, deleted, or an old version: skipped.
  {
    server: {
      name: 'com.example/docker-only',
      description: 'Docker',
      version: '1.0.0',
      packages: [{ registryType: 'oci', identifier: 'ghcr.io/example/x:1', transport: { type: 'stdio' } }],
    },
    _meta: official(),
  },
  {
    server: {
      name: 'com.example/deleted',
      description: 'Gone',
      version: '1.0.0',
      packages: [{ registryType: 'npm', identifier: 'gone-mcp', version: '1.0.0', transport: { type: 'stdio' } }],
    },
    _meta: official('deleted'),
  },
  {
    server: {
      name: 'com.example/old',
      description: 'Old',
      version: '0.1.0',
      packages: [{ registryType: 'npm', identifier: 'old-mcp', version: '0.1.0', transport: { type: 'stdio' } }],
    },
    _meta: official('active', false),
  },
  { not: 'a server' },
];

export async function startRegistryStandIn(servers: unknown[] = registryServers, pageSize = 3): Promise<RegistryStandIn> {
  const requests: string[] = [];
  let failure = 0;
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (failure) return void res.writeHead(failure).end();
    if (req.method !== 'GET' || url.pathname !== '/v0/servers') return void res.writeHead(404).end();
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const limit = Math.min(pageSize, Number(url.searchParams.get('limit') ?? pageSize));
    const page = servers.slice(start, start + limit);
    const next = start + limit < servers.length ? String(start + limit) : undefined;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ servers: page, metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failWith: (status) => (failure = status),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
