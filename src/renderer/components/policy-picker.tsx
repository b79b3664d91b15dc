import type { ServerSettings, ToolPolicy } from '../../shared/settings';
import type { CatalogTool } from '../../shared/status';
import { useApp } from '../app-context';

const POLICIES: readonly ToolPolicy[] = ['run', 'ask', 'window', 'never'];

/** What a tool does by voice when neither it nor its server is set: ask first if it says it destroys something. */
export function defaultToolPolicy(
  server: Pick<ServerSettings, 'toolPolicy'> | undefined,
  tool: Pick<CatalogTool, 'destructive'>,
): ToolPolicy {
  return server?.toolPolicy ?? (tool.destructive ? 'ask' : 'run');
}

/**
 * How a tool (or every tool of a server) runs when xiaozhi calls it: run, ask first (the person's
 * PIN, or Allow), only when allowed in the window, never, or the
 * default, which the first choice names ("Default: ask first").
 */
export function PolicyPicker(props: {
  label: string;
  value: ToolPolicy | undefined;
  /** The default's own words: a policy, or "each tool as set" for a server. */
  defaultText: string;
  onChange: (policy: ToolPolicy | null) => void;
}) {
  const { t } = useApp();
  return (
    <select
      className="policy-picker"
      aria-label={props.label}
      title={props.label}
      value={props.value ?? ''}
      onChange={(e) => props.onChange(e.target.value === '' ? null : (e.target.value as ToolPolicy))}
    >
      <option value="">{props.defaultText}</option>
      {POLICIES.map((policy) => (
        <option key={policy} value={policy}>
          {t(`policy.${policy}`)}
        </option>
      ))}
    </select>
  );
}
