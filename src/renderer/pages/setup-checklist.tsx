import type { BridgeState } from '../../shared/status';
import { userToolCount } from '../../shared/status-summary';
import { useApp } from '../app-context';
import { serversLink } from './xiaozhi-status';

/** The xiaozhi console, where the user finds the MCP endpoint (MCP 接入点) of an agent. */
export const XIAOZHI_CONSOLE = 'https://xiaozhi.me/console/agents';

/**
 * The three things that must hold before xiaozhi can use a tool, each ticked when true, with the
 * one thing to do when not. Shown until xiaozhi has read at least one tool.
 */
export function SetupChecklist({ state }: { state: BridgeState }) {
  const { t } = useApp();
  const connected = state.endpoints.some((e) => e.state === 'connected');
  const enabled = state.servers.filter((s) => s.enabled);
  const running = enabled.filter((s) => s.state === 'running');
  const read = Math.max(0, ...state.endpoints.map((e) => e.toolsRead?.count ?? 0));
  // The user's tools, as the headline and the sidebar count them (the app's own are not theirs).
  const tools = userToolCount(state);
  const steps = [
    {
      done: connected,
      title: t('checklist.endpoint'),
      body: connected ? t('checklist.endpointDone') : t('checklist.endpointTodo'),
      action: (
        <a className="btn btn-small" href={XIAOZHI_CONSOLE} target="_blank" rel="noreferrer noopener">
          {t('checklist.openConsole')}
        </a>
      ),
    },
    {
      done: running.length > 0 && tools > 0,
      title: t('checklist.servers'),
      body:
        enabled.length === 0
          ? t('checklist.serversNone')
          : t('checklist.serversSome', { running: running.length, total: enabled.length, tools }),
      action: (
        <a className="btn btn-small" href={enabled.length === 0 ? serversLink({ add: true }) : serversLink()}>
          {t(enabled.length === 0 ? 'checklist.openCatalogue' : 'checklist.openServers')}
        </a>
      ),
    },
    {
      done: read > 0,
      title: t('checklist.read'),
      body: connected ? t('checklist.readTodo') : t('checklist.readWaits'),
      // What is left is talking to xiaozhi, which no button here does: the body says how.
      action: null,
    },
  ];
  return (
    <section className="panel checklist" aria-labelledby="checklist-title">
      <h2 id="checklist-title">{t('checklist.title')}</h2>
      {/* .list gives the column and spacing every list has; .checklist-steps its steps. */}
      <ol className="list checklist-steps">
        {steps.map((step, i) => (
          <li key={i} className={step.done ? 'done' : undefined}>
            <span className="check-mark" aria-hidden="true">
              {step.done ? '✓' : i + 1}
            </span>
            <div className="checklist-text">
              <strong>
                {step.title}
                <span className="visually-hidden">{step.done ? ` (${t('checklist.done')})` : ''}</span>
              </strong>
              <div className="small muted">{step.body}</div>
            </div>
            {step.done ? null : step.action}
          </li>
        ))}
      </ol>
    </section>
  );
}
