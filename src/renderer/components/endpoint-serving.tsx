import { type FormEvent, useId, useState } from 'react';

import type { ToolMode } from '../../shared/settings';
import type { EndpointStatus } from '../../shared/status';
import { useApp } from '../app-context';
import { formatBytes } from '../format';
import { useStore } from '../store/bridge-store';
import { overBudget } from './budget';
import { ServedCount } from './served-count';
import { ServedPreviewDialog } from './served-preview-dialog';
import { servingSentence, userToolsOf } from './serving-sentence';
import { Button, Notice } from './ui';
import { useCommand } from './use-command';

import './serving.css';

/**
 * Per endpoint: one sentence on how xiaozhi gets its tools; behind "details", the mode (automatic,
 * every tool, search) and how many tools that is; behind "advanced" within, pinned tools and exactly
 * what xiaozhi sees.
 */
export function EndpointServing({ endpoint }: { endpoint: EndpointStatus }) {
  const { store, t } = useApp();
  const settings = useStore(store, (d) => d.settings);
  const run = useCommand();
  const [previewing, setPreviewing] = useState(false);
  const served = endpoint.served;
  if (!served || !settings) return null;
  const configured = settings.endpoints.find((e) => e.id === endpoint.id);
  const pinned = configured?.pinned ?? [];
  const mode = served.mode;
  const chosen = served.chosen ?? mode;
  // Only a choice to serve everything, whatever it costs, can be over the budget: auto searches by itself.
  const over = chosen === 'all' && overBudget(served, settings.limits);
  const setMode = (toolMode: ToolMode) => void run(() => store.api.setEndpointTools({ id: endpoint.id, toolMode }));

  return (
    <div className="serving">
      <div className="small">{servingSentence(served, t)}</div>
      {over ? (
        <Notice kind="warn">
          <span className="budget-warning">
            <span>{t('served.overBudget', { tools: settings.limits.budgetTools, size: formatBytes(settings.limits.budgetBytes) })}</span>
            <Button small kind="primary" onClick={() => setMode('auto')}>
              {t('plain.useAuto')}
            </Button>
          </span>
        </Notice>
      ) : null}
      {/* Open where the person chose a mode of their own: what they chose stays in sight. */}
      <details className="serving-details" open={chosen !== 'auto'}>
        <summary className="small">{t('plain.details')}</summary>
        <div className="serving-row">
          <ModeSwitch mode={chosen} onChange={setMode} />
        </div>
        {/* Each choice says what it does for the person, in a plain line under it (issue 33). */}
        <div className="small muted">{t('names8.served.modeLine')}</div>
        <div className="serving-row">
          <ServedCount endpoint={endpoint} />
          <span className="small muted">
            {chosen === 'auto'
              ? t('plain.modeHint.auto')
              : mode === 'router'
                ? t('served.modeHint.router', { count: userToolsOf(served) })
                : t('served.modeHint.all')}
          </span>
        </div>
        {/* What few people need (pinned tools, the list word for word) waits one more click away. */}
        <details className="serving-advanced">
          <summary className="small">{t('names8.served.advanced')}</summary>
          {mode === 'router' ? <PinnedTools endpointId={endpoint.id} pinned={pinned} /> : null}
          <div className="serving-row">
            <Button small onClick={() => setPreviewing(true)}>
              {t('served.preview')}
            </Button>
            <span className="small muted">{t('names8.served.previewLine')}</span>
          </div>
        </details>
      </details>
      {previewing ? <ServedPreviewDialog endpoint={endpoint} onClose={() => setPreviewing(false)} /> : null}
    </div>
  );
}

const MODE_LABELS = { auto: 'plain.mode.auto', all: 'served.mode.all', router: 'served.mode.router' } as const;

function ModeSwitch({ mode, onChange }: { mode: ToolMode; onChange: (mode: ToolMode) => void }) {
  const { t } = useApp();
  const label = useId();
  return (
    <>
      <span className="label-like small" id={label}>
        {t('served.mode')}
      </span>
      <div className="segmented" role="radiogroup" aria-labelledby={label}>
        {(['auto', 'all', 'router'] as const).map((value) => (
          <button key={value} type="button" role="radio" aria-checked={mode === value} onClick={() => mode !== value && onChange(value)}>
            {t(MODE_LABELS[value])}
          </button>
        ))}
      </div>
    </>
  );
}

/** Tools served as themselves beside find_tools: chips to remove, a name box (with suggestions) to add. */
function PinnedTools({ endpointId, pinned }: { endpointId: string; pinned: string[] }) {
  const { store, t, toast } = useApp();
  const catalog = useStore(store, (d) => d.catalog);
  const run = useCommand();
  const [name, setName] = useState('');
  const listId = useId();
  const served = new Set(catalog.filter((tool) => tool.enabled).map((tool) => tool.name));
  const save = (next: string[]) => run(() => store.api.setEndpointTools({ id: endpointId, pinned: next }));
  const add = (e: FormEvent) => {
    e.preventDefault();
    const value = name.trim();
    if (!value) return;
    if (!catalog.some((tool) => tool.name === value)) {
      toast(t('served.pinUnknown', { name: value }), 'error');
      return;
    }
    void save([...new Set([...pinned, value])]).then((ok) => ok && setName(''));
  };
  return (
    <div className="serving-pinned">
      <div className="serving-row">
        <span className="label-like small" title={t('served.pinnedHint')}>
          {t('served.pinned')}
        </span>
        <span className="pins">
          {pinned.map((tool) => (
            <span
              key={tool}
              className={`pin mono${served.has(tool) ? '' : ' is-missing'}`}
              title={served.has(tool) ? undefined : t('served.notServed')}
            >
              {tool}
              <button
                type="button"
                aria-label={t('served.unpin', { name: tool })}
                onClick={() => void save(pinned.filter((p) => p !== tool))}
              >
                ✕
              </button>
            </span>
          ))}
        </span>
        <form className="pin-form" onSubmit={add}>
          <input
            list={listId}
            aria-label={t('served.pinned')}
            placeholder={t('served.pinPlaceholder')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            spellCheck={false}
          />
          <datalist id={listId}>
            {catalog
              .filter((tool) => tool.enabled && !pinned.includes(tool.name))
              .map((tool) => (
                <option key={tool.name} value={tool.name}>
                  {tool.server}
                </option>
              ))}
          </datalist>
          <Button small type="submit" disabled={!name.trim()}>
            {t('served.pin')}
          </Button>
        </form>
      </div>
      <div className="small muted">{t('names8.served.pinnedLine')}</div>
    </div>
  );
}
