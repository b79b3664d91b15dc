import { hasMessage, type Translate, translator } from '../shared/i18n/translate';
import type { ImportPreview, ImportServerItem } from '../shared/import';
import { serverTarget } from '../shared/settings';
import { configProblemText } from './config-file';

/** What the user gave on the command line: `--input ID=…` values and `--use-env NAME` names, as input ids. */
export type GivenInputs = ReadonlySet<string>;

/** The inputs still needed by the servers that will be imported, once `given` is counted. */
export function missingInputs(preview: ImportPreview, given: GivenInputs): string[] {
  return [
    ...new Set(preview.servers.filter((item) => item.action !== 'skip').flatMap((item) => item.needs.filter((id) => !given.has(id)))),
  ];
}

/** Servers that set variables which run code before them (NODE_OPTIONS, LD_PRELOAD…), with those names. */
export function codeEnvServers(preview: ImportPreview): ImportServerItem[] {
  return preview.servers.filter((item) => item.action !== 'skip' && item.codeEnv.length > 0);
}

/** Why nothing was written under --yes: `which` names each server and the variables it sets (`cli.preview.setsCode…`). */
export const codeEnvRefusal = (t: Translate, which: string[]): string =>
  t('cli.preview.codeRefused', { which: joined(t, 'cli.import.clauseList', which) });

/** Items one after another, as the reader's language lists them (`cli.import.nameList`: "a, b" or "a、b"). */
const joined = (t: Translate, key: 'cli.import.nameList' | 'cli.import.clauseList', items: readonly string[]): string =>
  items.reduce((list, item) => (list ? t(key, { first: list, next: item }) : item), '');

export const nameList = (t: Translate, names: readonly string[]): string => joined(t, 'cli.import.nameList', names);

/** Everything the window's preview shows of a server: its env (flagged where it runs code), headers and folder; secrets masked. */
export function serverDetails(item: ImportServerItem, t: Translate = translator('en')): string[] {
  const s = item.server;
  if (s.transport === 'sse' || s.transport === 'streamable-http' || s.transport === 'n8n' || s.transport === 'http-api')
    return Object.entries(s.headers).map(([name, value]) => `    header ${name}: ${value}`);
  if (s.transport !== 'stdio') return [];
  return [
    ...Object.entries(s.env).map(
      ([name, value]) => `    env ${name}=${value}${item.codeEnv.includes(name) ? `   <- ${t('cli.preview.codeNote')}` : ''}`,
    ),
    ...(s.cwd !== undefined ? [`    cwd ${s.cwd}`] : []),
  ];
}

/** A conflict with what the config holds: its kind (same name, same command, same URL) and with what. */
function conflictText(t: Translate, conflict: { kind: string; existing: string }): string {
  const key = `cli.preview.conflict.${conflict.kind}`;
  const kind = hasMessage(key) ? t(key) : conflict.kind.replace('-', ' ');
  return t('cli.preview.conflict', { kind, existing: conflict.existing });
}

/** What the import will do with an entry (add, skip, replace, rename to …). */
function actionText(t: Translate, action: string, renamed?: string): string {
  if (action === 'rename') return t('cli.preview.action.rename', { name: renamed ?? '' });
  const key = `cli.preview.action.${action}`;
  return hasMessage(key) ? t(key) : action;
}

/** The preview as text, for the CLI; a value in `given` is not listed as needed. */
export function describePreview(preview: ImportPreview, given: GivenInputs = new Set(), t: Translate = translator('en')): string {
  const lines = [t('cli.preview.title', { source: preview.source, format: preview.format })];
  for (const item of preview.servers) {
    const s = item.server;
    const target = s.transport === 'stdio' ? serverTarget(s) : `${s.transport} ${serverTarget(s)}`;
    const conflict = item.conflict ? conflictText(t, item.conflict) : '';
    const action = actionText(t, item.action, item.suggestedName);
    const off = s.enabled ? '' : t('cli.preview.disabled');
    lines.push(t('cli.preview.server', { name: s.name, target, off, conflict, action }));
    lines.push(...serverDetails(item, t));
    const needs = item.needs.filter((id) => !given.has(id));
    if (needs.length > 0) lines.push(t('cli.preview.needs', { ids: needs.join(', ') }));
  }
  for (const e of preview.endpoints) {
    const conflict = e.conflict ? conflictText(t, e.conflict) : '';
    lines.push(t('cli.preview.endpoint', { name: e.name, url: e.url, conflict, action: actionText(t, e.action) }));
  }
  const missing = new Set(missingInputs(preview, given));
  for (const input of preview.inputs.filter((i) => missing.has(i.id))) {
    // The folder and an environment variable are said as the window says them, in the reader's language.
    const description = input.id.startsWith('env:')
      ? t('import.envVariable', { name: input.id.slice(4) })
      : input.id === 'workspaceFolder'
        ? t('import.workspaceFolder')
        : input.description;
    lines.push(t('cli.import.value', { id: input.id, description, where: input.where.join(', ') }));
    const name = input.id.slice(4);
    if (input.ownSecret) lines.push(t('cli.preview.ownSecret', { name, id: input.id }));
    else if (input.fromEnvironment !== undefined)
      lines.push(t('cli.preview.inEnvironment', { name, id: input.id, value: input.fromEnvironment }));
  }
  for (const item of codeEnvServers(preview))
    lines.push(t('cli.preview.codeWarning', { name: item.server.name, vars: item.codeEnv.join(', '), count: item.codeEnv.length }));
  const switches = Object.values(preview.tools).reduce((n, tools) => n + Object.keys(tools).length, 0);
  if (switches > 0) lines.push(t('cli.preview.toolSettings', { count: switches }));
  for (const w of preview.warnings) lines.push(`  ${t('cli.check.warning', { warning: configProblemText(t, w) })}`);
  return lines.join('\n');
}
