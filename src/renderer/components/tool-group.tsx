import type { Translate } from '../../shared/i18n/translate';
import { RESERVED_SERVER_NAME } from '../../shared/settings';
import type { CatalogTool } from '../../shared/status';
import { useApp } from '../app-context';
import { useServerTitle } from './server-title';
import { Switch } from './ui';

/** Tools grouped by their server, servers in name order: the tools page and the tool-set editor list them so. */
export function groupByServer(tools: readonly CatalogTool[]): [string, CatalogTool[]][] {
  const byServer = new Map<string, CatalogTool[]>();
  for (const tool of tools) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  return [...byServer.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** One server's group header: its name, how many of its tools are on, and a switch for all of them. */
/** A group's name: a server's own, or words for the app's built-in tools (not its program name, "xiaozhi-tray"). */
export function toolGroupLabel(server: string, t: Translate, title: (name: string) => string = (name) => name): string {
  return server === RESERVED_SERVER_NAME ? t('tools.builtIn') : title(server);
}

export function ToolGroupHeader(props: {
  server: string;
  tools: readonly CatalogTool[];
  heading: 'h2' | 'h4';
  onAllChange: (enabled: boolean) => void;
}) {
  const { t } = useApp();
  const title = useServerTitle();
  const { tools } = props;
  const server = toolGroupLabel(props.server, t, title);
  const Heading = props.heading;
  const on = tools.filter((tool) => tool.enabled).length;
  const allOn = on === tools.length;
  return (
    <header className="tool-group-header">
      <Heading>{server}</Heading>
      <span className="muted small">{t('tools.enabledCount', { on, total: tools.length })}</span>
      <span className="spacer" />
      <Switch showLabel label={t('tools.allOn', { server })} checked={allOn} mixed={on > 0 && !allOn} onChange={props.onAllChange} />
    </header>
  );
}

/** A tool's switch, as the first thing in its row. */
export function ToolSwitch({ tool, onChange }: { tool: CatalogTool; onChange: (enabled: boolean) => void }) {
  const { t } = useApp();
  return <Switch label={t('tools.toggle', { name: tool.name })} checked={tool.enabled} onChange={onChange} />;
}

/** A tool's name as xiaozhi sees it, and the name its server gave it when they differ (its size is in the page's details). */
export function ToolNames({ tool }: { tool: CatalogTool }) {
  return (
    <>
      <span className="mono tool-name">{tool.name}</span>
      {tool.name !== tool.originalName ? <span className="small muted mono">← {tool.originalName}</span> : null}
    </>
  );
}
