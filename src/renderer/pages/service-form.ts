import { DIFY_CLOUD_URL, type ServiceKind } from '../../shared/service-settings';
import { ServerSettingsSchema, type ServerSettings, type ServiceSettings } from '../../shared/settings';

/**
 * The "Add" dialog of each web service kind asks only what its platform needs: the fields of each
 * kind, what a draft (text fields) holds, and how it becomes settings and back.
 */
export type ServiceField =
  | 'name'
  | 'site'
  | 'baseUrl'
  | 'url'
  | 'spec'
  | 'token'
  | 'apiKey'
  | 'app'
  | 'workflowId'
  | 'tool'
  | 'description'
  | 'inputs'
  | 'services'
  | 'states'
  | 'operations'
  | 'credentialName'
  | 'credential'
  | 'headerName'
  | 'headerValue'
  | 'method';

export type ServiceDraft = Record<ServiceField, string> & { transport: ServiceKind };

/** The fields each kind asks, in order. */
export const SERVICE_FIELDS: Record<ServiceKind, ServiceField[]> = {
  coze: ['name', 'site', 'token', 'workflowId', 'tool', 'description', 'inputs'],
  dify: ['name', 'baseUrl', 'apiKey', 'app', 'tool', 'description'],
  n8n: ['name', 'url', 'headerName', 'headerValue', 'tool', 'description', 'inputs'],
  'home-assistant': ['name', 'baseUrl', 'token', 'services', 'states'],
  openapi: ['name', 'spec', 'baseUrl', 'operations', 'credentialName', 'credential'],
  'http-api': ['name', 'method', 'url', 'headerName', 'headerValue', 'tool', 'description'],
};

/** Fields that hold a secret (a password input; masked when shown). */
export const SECRET_FIELDS = new Set<ServiceField>(['token', 'apiKey', 'credential', 'headerValue']);

export function emptyServiceDraft(transport: ServiceKind): ServiceDraft {
  const blank = Object.fromEntries(Object.keys(FIELD_ORDER).map((k) => [k, ''])) as Record<ServiceField, string>;
  return {
    ...blank,
    transport,
    site: 'coze.cn',
    app: 'workflow',
    method: transport === 'n8n' ? 'POST' : 'GET',
    states: 'yes',
    ...(transport === 'dify' ? { baseUrl: DIFY_CLOUD_URL } : {}),
    ...(transport === 'home-assistant' ? { baseUrl: 'http://homeassistant.local:8123' } : {}),
  };
}

const FIELD_ORDER: Record<ServiceField, true> = {
  name: true,
  site: true,
  baseUrl: true,
  url: true,
  spec: true,
  token: true,
  apiKey: true,
  app: true,
  workflowId: true,
  tool: true,
  description: true,
  inputs: true,
  services: true,
  states: true,
  operations: true,
  credentialName: true,
  credential: true,
  headerName: true,
  headerValue: true,
  method: true,
};

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** `city` or `city: the city to ask about`, one argument a line. */
function inputsFrom(text: string): { name: string; description?: string }[] {
  return lines(text).map((line) => {
    const at = line.indexOf(':');
    if (at === -1) return { name: line };
    const description = line.slice(at + 1).trim();
    return { name: line.slice(0, at).trim(), ...(description ? { description } : {}) };
  });
}

const inputsText = (inputs: { name: string; description?: string | undefined }[]) =>
  inputs.map((i) => (i.description ? `${i.name}: ${i.description}` : i.name)).join('\n');

const optional = (key: string, value: string) => (value.trim() ? { [key]: value.trim() } : {});
const header = (d: ServiceDraft) => (d.headerName.trim() ? { [d.headerName.trim()]: d.headerValue } : {});

/** The settings a draft describes (validated by the caller with the shared schema); `previous` keeps what the dialog does not show. */
export function serviceFromDraft(d: ServiceDraft, previous?: ServiceSettings): unknown {
  const name = d.name.trim();
  const common = {
    name,
    enabled: previous?.enabled ?? true,
    ...(previous?.callTimeoutMs ? { callTimeoutMs: previous.callTimeoutMs } : {}),
  };
  switch (d.transport) {
    case 'coze': {
      const before = previous?.transport === 'coze' ? previous.workflows.slice(1) : [];
      const workflow = { id: d.workflowId.trim(), tool: d.tool.trim(), description: d.description, inputs: inputsFrom(d.inputs) };
      return { ...common, transport: 'coze', site: d.site, token: d.token.trim(), workflows: [workflow, ...before] };
    }
    case 'dify':
      return {
        ...common,
        transport: 'dify',
        baseUrl: d.baseUrl.trim(),
        apiKey: d.apiKey.trim(),
        app: d.app,
        tool: d.tool.trim(),
        description: d.description,
      };
    case 'n8n':
      return {
        ...common,
        transport: 'n8n',
        url: d.url.trim(),
        method: d.method === 'GET' ? 'GET' : 'POST',
        headers: header(d),
        tool: d.tool.trim(),
        description: d.description,
        inputs: inputsFrom(d.inputs),
      };
    case 'home-assistant':
      return {
        ...common,
        transport: 'home-assistant',
        baseUrl: d.baseUrl.trim(),
        token: d.token.trim(),
        services: lines(d.services),
        states: d.states === 'yes',
      };
    case 'openapi':
      return {
        ...common,
        transport: 'openapi',
        spec: d.spec.trim(),
        ...optional('baseUrl', d.baseUrl),
        ...(lines(d.operations).length > 0 ? { operations: lines(d.operations) } : {}),
        credentials: d.credentialName.trim() ? { [d.credentialName.trim()]: d.credential } : {},
      };
    case 'http-api': {
      const before = previous?.transport === 'http-api' ? previous.tools : [];
      const first = before[0];
      const tool = { ...first, name: d.tool.trim(), method: d.method, url: d.url.trim(), description: d.description };
      return { ...common, transport: 'http-api', headers: header(d), tools: [tool, ...before.slice(1)] };
    }
  }
}

/** A service's settings as the dialog's fields (the first workflow or request of several). */
export function draftFromService(s: ServiceSettings): ServiceDraft {
  const d = emptyServiceDraft(s.transport);
  d.name = s.name;
  const [headerName, headerValue] = 'headers' in s ? (Object.entries(s.headers)[0] ?? ['', '']) : ['', ''];
  d.headerName = headerName;
  d.headerValue = headerValue;
  switch (s.transport) {
    case 'coze': {
      const w = s.workflows[0];
      return {
        ...d,
        site: s.site,
        token: s.token,
        workflowId: w?.id ?? '',
        tool: w?.tool ?? '',
        description: w?.description ?? '',
        inputs: inputsText(w?.inputs ?? []),
      };
    }
    case 'dify':
      return { ...d, baseUrl: s.baseUrl, apiKey: s.apiKey, app: s.app, tool: s.tool, description: s.description };
    case 'n8n':
      return { ...d, url: s.url, method: s.method, tool: s.tool, description: s.description, inputs: inputsText(s.inputs) };
    case 'home-assistant':
      return { ...d, baseUrl: s.baseUrl, token: s.token, services: s.services.join('\n'), states: s.states ? 'yes' : 'no' };
    case 'openapi': {
      const [credentialName, credential] = Object.entries(s.credentials)[0] ?? ['', ''];
      return { ...d, spec: s.spec, baseUrl: s.baseUrl ?? '', operations: (s.operations ?? []).join('\n'), credentialName, credential };
    }
    case 'http-api': {
      const t = s.tools[0];
      return { ...d, method: t?.method ?? 'GET', url: t?.url ?? '', tool: t?.name ?? '', description: t?.description ?? '' };
    }
  }
}

/** Which dialog field a settings path names (`workflows[0].id` → workflowId). */
function fieldOf(path: PropertyKey[]): ServiceField {
  const [first, , third] = path.map(String);
  if (first === 'workflows') return third === 'id' ? 'workflowId' : third === 'tool' ? 'tool' : 'inputs';
  if (first === 'tools') return third === 'name' ? 'tool' : third === 'url' ? 'url' : 'description';
  if (first === 'headers') return 'headerName';
  if (first === 'credentials') return 'credentialName';
  return (first && first in FIELD_ORDER ? first : 'name') as ServiceField;
}

/** The settings, or the fields that are wrong (each worded by the dialog). */
export function validateServiceDraft(
  d: ServiceDraft,
  existingNames: string[],
  previous?: ServiceSettings,
): { service?: ServerSettings; wrong: Set<ServiceField>; duplicate: boolean } {
  const duplicate = existingNames.includes(d.name.trim());
  const parsed = ServerSettingsSchema.safeParse(serviceFromDraft(d, previous));
  const wrong = new Set<ServiceField>(parsed.success ? [] : parsed.error.issues.map((issue) => fieldOf(issue.path)));
  if (duplicate) wrong.add('name');
  return parsed.success && !duplicate ? { service: parsed.data, wrong, duplicate } : { wrong, duplicate };
}
