import { MASK_MARKER } from '../../shared/masked';
import { DIFY_CLOUD_URL, type ServiceKind } from '../../shared/service-settings';
import { type ServerSettings, ServerSettingsSchema, type ServiceSettings } from '../../shared/settings';

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
  | 'tags'
  | 'paths'
  | 'credentialName'
  | 'credential'
  | 'headerName'
  | 'headerValue'
  | 'method';

export type ServiceDraft = Record<ServiceField, string> & { transport: ServiceKind };

/** The fields each kind asks, in order. */
export const SERVICE_FIELDS: Record<ServiceKind, ServiceField[]> = {
  coze: ['name', 'site', 'token', 'workflowId', 'tool', 'description', 'inputs'],
  // Its type (workflow, chat, agent) is Dify's to say (GET /info): not asked.
  dify: ['name', 'baseUrl', 'apiKey', 'tool', 'description'],
  n8n: ['name', 'url', 'headerName', 'headerValue', 'tool', 'description', 'inputs'],
  'home-assistant': ['name', 'baseUrl', 'token', 'services', 'states'],
  // `operations` is the chooser, which holds `tags` and `paths` too (service-editor.tsx).
  openapi: ['name', 'spec', 'operations', 'baseUrl', 'headerName', 'headerValue', 'credentialName', 'credential'],
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
  tags: true,
  paths: true,
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

type Input = { name: string; description?: string | undefined } & Record<string, unknown>;

/**
 * `city` or `city: the city to ask about`, one argument a line; an argument the service already
 * had keeps what the dialog does not show (its type, whether it is required).
 */
function inputsFrom(text: string, before: readonly Input[] = []): Input[] {
  return lines(text).map((line) => {
    const at = line.indexOf(':');
    const name = (at === -1 ? line : line.slice(0, at)).trim();
    const description = at === -1 ? '' : line.slice(at + 1).trim();
    const { description: _shown, ...kept } = before.find((i) => i.name === name) ?? { name };
    return { ...kept, name, ...(description ? { description } : {}) };
  });
}

const inputsText = (inputs: { name: string; description?: string | undefined }[]) =>
  inputs.map((i) => (i.description ? `${i.name}: ${i.description}` : i.name)).join('\n');

/** A key shown only when filled: an emptied field removes it. */
function optional<T extends Record<string, unknown>>(onto: T, key: string, value: string): T {
  const { [key]: _was, ...rest } = onto;
  return (value.trim() ? { ...rest, [key]: value.trim() } : rest) as T;
}

/**
 * A record whose first entry the dialog shows (a header, a credential): that entry as typed, the
 * others kept as they were (the dialog has one pair of fields; a second header must not be lost).
 */
function firstEntry(before: Record<string, string> | undefined, name: string, value: string): Record<string, string> {
  const rest = Object.entries(before ?? {}).slice(1);
  const typed = name.trim() ? [[name.trim(), value] as const] : [];
  return Object.fromEntries([...typed, ...rest.filter(([k]) => k !== name.trim())]);
}

/**
 * The settings a draft describes (validated by the caller with the shared schema). The dialog
 * shows a few fields of a service: they are laid onto `previous` (the stored settings), so that
 * whatever the dialog does not show (a baseUrl, a second header, Dify's output, n8n's result, an
 * argument's type) is saved back exactly as it was.
 */
export function serviceFromDraft(d: ServiceDraft, previous?: ServiceSettings): unknown {
  const name = d.name.trim();
  const same = previous?.transport === d.transport ? previous : undefined;
  const common = { ...(same ?? { enabled: previous?.enabled ?? true }), name, transport: d.transport };
  switch (d.transport) {
    case 'coze': {
      const before = same?.transport === 'coze' ? same.workflows : [];
      const first = before[0];
      const workflow = {
        ...first,
        id: d.workflowId.trim(),
        tool: d.tool.trim(),
        description: d.description,
        inputs: inputsFrom(d.inputs, first?.inputs),
      };
      return { ...common, site: d.site, token: d.token.trim(), workflows: [workflow, ...before.slice(1)] };
    }
    case 'dify':
      // The tool's name and description may be left to the app's own (GET /info).
      return optional(
        { ...common, baseUrl: d.baseUrl.trim(), apiKey: d.apiKey.trim(), app: d.app, description: d.description },
        'tool',
        d.tool,
      );
    case 'n8n': {
      const before = same?.transport === 'n8n' ? same : undefined;
      return {
        ...common,
        url: d.url.trim(),
        method: d.method === 'GET' ? 'GET' : 'POST',
        headers: firstEntry(before?.headers, d.headerName, d.headerValue),
        tool: d.tool.trim(),
        description: d.description,
        inputs: inputsFrom(d.inputs, before?.inputs),
      };
    }
    case 'home-assistant':
      return { ...common, baseUrl: d.baseUrl.trim(), token: d.token.trim(), services: lines(d.services), states: d.states === 'yes' };
    case 'openapi': {
      const before = same?.transport === 'openapi' ? same : undefined;
      const withBase = optional({ ...common, spec: d.spec.trim() } as Record<string, unknown>, 'baseUrl', d.baseUrl);
      const { operations: _ops, tags: _tags, paths: _paths, ...rest } = withBase;
      const chosen = (key: 'operations' | 'tags' | 'paths') => (lines(d[key]).length > 0 ? { [key]: lines(d[key]) } : {});
      return {
        ...rest,
        ...chosen('operations'),
        ...chosen('tags'),
        ...chosen('paths'),
        headers: firstEntry(before?.headers, d.headerName, d.headerValue),
        credentials: firstEntry(before?.credentials, d.credentialName, d.credential),
      };
    }
    case 'http-api': {
      const before = same?.transport === 'http-api' ? same : undefined;
      const tools = before?.tools ?? [];
      const tool = { ...tools[0], name: d.tool.trim(), method: d.method, url: d.url.trim(), description: d.description };
      return { ...common, headers: firstEntry(before?.headers, d.headerName, d.headerValue), tools: [tool, ...tools.slice(1)] };
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
      return { ...d, baseUrl: s.baseUrl, apiKey: s.apiKey, app: s.app, tool: s.tool ?? '', description: s.description };
    case 'n8n':
      return { ...d, url: s.url, method: s.method, tool: s.tool, description: s.description, inputs: inputsText(s.inputs) };
    case 'home-assistant':
      return { ...d, baseUrl: s.baseUrl, token: s.token, services: s.services.join('\n'), states: s.states ? 'yes' : 'no' };
    case 'openapi': {
      const [credentialName, credential] = Object.entries(s.credentials)[0] ?? ['', ''];
      return {
        ...d,
        spec: s.spec,
        baseUrl: s.baseUrl ?? '',
        operations: (s.operations ?? []).join('\n'),
        tags: (s.tags ?? []).join('\n'),
        paths: (s.paths ?? []).join('\n'),
        credentialName,
        credential,
      };
    }
    case 'http-api': {
      const t = s.tools[0];
      return { ...d, method: t?.method ?? 'GET', url: t?.url ?? '', tool: t?.name ?? '', description: t?.description ?? '' };
    }
  }
}

/**
 * How many more entries than the dialog shows a service has behind a field (a second header, a
 * second request): kept as they are on save, and said under the field so nobody thinks them gone.
 */
export function hiddenEntries(s: ServiceSettings | undefined, field: ServiceField): number {
  if (!s) return 0;
  const more = (n: number) => Math.max(0, n - 1);
  if (field === 'headerName' && 'headers' in s) return more(Object.keys(s.headers).length);
  if (field === 'credentialName' && s.transport === 'openapi') return more(Object.keys(s.credentials).length);
  if (field === 'tool' && s.transport === 'http-api') return more(s.tools.length);
  if (field === 'workflowId' && s.transport === 'coze') return more(s.workflows.length);
  return 0;
}

/** Which dialog field a settings path names (`workflows[0].id` → workflowId). */
function fieldOf(path: PropertyKey[]): ServiceField {
  const [first, , third] = path.map(String);
  if (first === 'workflows') return third === 'id' ? 'workflowId' : third === 'tool' ? 'tool' : 'inputs';
  if (first === 'tools') return third === 'name' ? 'tool' : third === 'url' ? 'url' : 'description';
  if (first === 'headers') return 'headerName';
  if (first === 'credentials') return 'credentialName';
  if (first === 'tags' || first === 'paths') return 'operations';
  return (first && first in FIELD_ORDER ? first : 'name') as ServiceField;
}

/** Secret fields and the name each one's value belongs to (a header's value, a credential's). */
const SECRET_NAMES: Partial<Record<ServiceField, ServiceField>> = { headerValue: 'headerName', credential: 'credentialName' };

/**
 * Secret fields still showing the hidden (masked) value where the stored value cannot be put back:
 * edited in part, or its name changed (a header renamed). Said on the field, not refused later.
 */
function stillMasked(d: ServiceDraft, previous: ServiceSettings | undefined): Set<ServiceField> {
  const before = previous ? draftFromService(previous) : undefined;
  const out = new Set<ServiceField>();
  for (const field of SECRET_FIELDS) {
    if (!d[field].includes(MASK_MARKER)) continue;
    const pair = SECRET_NAMES[field];
    if (!before || before[field] !== d[field] || (pair && before[pair].trim() !== d[pair].trim())) out.add(field);
  }
  return out;
}

/** The settings, or the fields that are wrong (each worded by the dialog), and which of them still hold a hidden value. */
export function validateServiceDraft(
  d: ServiceDraft,
  existingNames: string[],
  previous?: ServiceSettings,
): { service?: ServerSettings; wrong: Set<ServiceField>; duplicate: boolean; masked: Set<ServiceField> } {
  const duplicate = existingNames.includes(d.name.trim());
  const parsed = ServerSettingsSchema.safeParse(serviceFromDraft(d, previous));
  const wrong = new Set<ServiceField>(parsed.success ? [] : parsed.error.issues.map((issue) => fieldOf(issue.path)));
  const masked = stillMasked(d, previous);
  for (const field of masked) wrong.add(field);
  if (duplicate) wrong.add('name');
  return parsed.success && !duplicate && masked.size === 0
    ? { service: parsed.data, wrong, duplicate, masked }
    : { wrong, duplicate, masked };
}
