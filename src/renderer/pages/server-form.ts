import { isMcpServer, type ServerSettings, ServerSettingsSchema } from '../../shared/settings';

/** The editable shape of a server: what the form fields hold. */
export interface ServerDraft {
  name: string;
  transport: ServerSettings['transport'];
  command: string;
  /** One argument per line: paths with spaces stay whole. */
  args: string;
  env: [string, string][];
  cwd: string;
  url: string;
  headers: [string, string][];
  enabled: boolean;
  callTimeoutSeconds: string;
  checkArguments: boolean;
  /** The catalogue entry it came from (kept as it is: its Edit shows that entry's values when they still fit). */
  catalogue: string;
}

export function emptyDraft(): ServerDraft {
  return {
    name: '',
    transport: 'stdio',
    command: '',
    args: '',
    env: [],
    cwd: '',
    url: '',
    headers: [],
    enabled: true,
    callTimeoutSeconds: '',
    checkArguments: true,
    catalogue: '',
  };
}

export function draftFromServer(server: ServerSettings): ServerDraft {
  return {
    ...emptyDraft(),
    name: server.name,
    transport: server.transport,
    enabled: server.enabled,
    callTimeoutSeconds: server.callTimeoutMs ? String(server.callTimeoutMs / 1000) : '',
    checkArguments: server.checkArguments !== false,
    catalogue: 'catalogue' in server ? (server.catalogue ?? '') : '',
    ...(server.transport === 'stdio'
      ? { command: server.command, args: server.args.join('\n'), env: Object.entries(server.env), cwd: server.cwd ?? '' }
      : isMcpServer(server)
        ? { url: server.url, headers: Object.entries(server.headers) }
        : {}),
  };
}

export function serverFromDraft(draft: ServerDraft): unknown {
  const timeout = draft.callTimeoutSeconds.trim() ? Math.round(Number(draft.callTimeoutSeconds) * 1000) : undefined;
  const common = {
    name: draft.name.trim(),
    enabled: draft.enabled,
    ...(timeout !== undefined ? { callTimeoutMs: timeout } : {}),
    ...(draft.checkArguments ? {} : { checkArguments: false }),
    ...(draft.catalogue ? { catalogue: draft.catalogue } : {}),
  };
  const record = (pairs: [string, string][]) => Object.fromEntries(pairs.filter(([k]) => k.trim()).map(([k, v]) => [k.trim(), v]));
  if (draft.transport === 'stdio') {
    return {
      ...common,
      transport: 'stdio',
      command: draft.command.trim(),
      args: draft.args
        .split('\n')
        .map((a) => a.trim())
        .filter(Boolean),
      env: record(draft.env),
      ...(draft.cwd.trim() ? { cwd: draft.cwd.trim() } : {}),
    };
  }
  return { ...common, transport: draft.transport, url: draft.url.trim(), headers: record(draft.headers) };
}

/** What is wrong with a field, as a code the form words in the UI's language (`servers.error.<code>`). */
export type FieldError = 'required' | 'tooLong' | 'url' | 'command' | 'timeout' | 'duplicate' | 'invalid';
export type FieldErrors = Partial<Record<'name' | 'command' | 'url' | 'callTimeoutSeconds' | 'form', FieldError>>;

/** Validates with the shared schema and files each problem, as a code, under the field that caused it. */
export function validateDraft(draft: ServerDraft, existingNames: string[]): { server?: ServerSettings; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (draft.name.trim() && existingNames.includes(draft.name.trim())) errors.name = 'duplicate';
  const parsed = ServerSettingsSchema.safeParse(serverFromDraft(draft));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if (key === 'callTimeoutMs') errors.callTimeoutSeconds ??= 'timeout';
      else if (key === 'name') errors.name ??= issue.code === 'too_big' ? 'tooLong' : 'required';
      else if (key === 'command') errors.command ??= 'command';
      else if (key === 'url') errors.url ??= draft.url.trim() ? 'url' : 'required';
      else errors.form ??= 'invalid';
    }
  }
  if (draft.callTimeoutSeconds.trim() && !Number.isFinite(Number(draft.callTimeoutSeconds))) errors.callTimeoutSeconds = 'timeout';
  return Object.keys(errors).length > 0 || !parsed.success ? { errors } : { server: parsed.data, errors };
}
