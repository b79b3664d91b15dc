import { useState } from 'react';

import { DEFAULT_TOOL_SET, type ToolSet } from '../../shared/settings';
import { useApp } from '../app-context';
import { RemoveButton } from '../components/confirm-dialog';
import { PagePanels } from '../components/page-panels';
import { RenameForm } from '../components/rename-form';
import { toolSetName, toolSetUsers } from '../components/tool-set-picker';
import { Button } from '../components/ui';
import { useCommand } from '../components/use-command';
import { formatBytes } from '../format';
import { useStore } from '../store/bridge-store';
import { NewToolSetDialog } from './new-tool-set-dialog';
import { ToolSetEditor } from './tool-set-editor';

import '../tool-sets.css';

/** The selected set's name, renamable (except the default set's) and removable. */
function ToolSetHeader({ set, users }: { set: ToolSet; users: string[] }) {
  const { store, t } = useApp();
  const run = useCommand();
  const [renaming, setRenaming] = useState(false);
  const isDefault = set.id === DEFAULT_TOOL_SET;
  return (
    <>
      <header className="toolset-header">
        {renaming ? (
          <RenameForm
            label={t('toolSets.name')}
            name={set.name}
            maxLength={64}
            onSave={(name) => run(() => store.api.updateToolSet({ id: set.id, name }))}
            onDone={() => setRenaming(false)}
          />
        ) : (
          <h2>{toolSetName(set, t)}</h2>
        )}
        <span className="spacer" />
        {isDefault || renaming ? null : (
          <>
            <Button small onClick={() => setRenaming(true)}>
              {t('common.rename')}
            </Button>
            <RemoveButton
              title={t('toolSets.removeTitle', { name: set.name })}
              body={t('toolSets.removeBody')}
              onConfirm={() => run(() => store.api.removeToolSet({ id: set.id }))}
            />
          </>
        )}
      </header>
      <p className="small muted" title={users.length > 0 ? users.join(t('list.separator')) : undefined}>
        {users.length > 0 ? t('toolSets.usedBy', { names: users.join(t('list.separator')) }) : t('toolSets.unused')}
      </p>
    </>
  );
}

/** Tool sets: create, rename, remove and fill them; see who serves each. */
export function ToolSetsPage() {
  const { store, t } = useApp();
  const settings = useStore(store, (d) => d.settings);
  const summaries = useStore(store, (d) => d.state.toolSets);
  const [selected, setSelected] = useState(DEFAULT_TOOL_SET);
  const [creating, setCreating] = useState(false);
  if (!settings) return null;
  const set = settings.toolSets.find((s) => s.id === selected) ?? (settings.toolSets[0] as ToolSet);
  return (
    <div className="page page-wide">
      <div className="page-header">
        <h1>{t('nav.toolSets')}</h1>
        <Button kind="primary" onClick={() => setCreating(true)}>
          + {t('toolSets.new')}
        </Button>
      </div>
      <PagePanels />
      <p className="muted small toolset-intro">{t('toolSets.intro')}</p>
      <div className="toolsets">
        <nav className="toolset-list" aria-label={t('toolSets.list')}>
          <ul>
            {settings.toolSets.map((s) => {
              const summary = summaries?.find((x) => x.id === s.id);
              const users = toolSetUsers(settings, s.id);
              return (
                <li key={s.id}>
                  <button
                    type="button"
                    className={s.id === set.id ? 'active' : undefined}
                    aria-current={s.id === set.id ? 'true' : undefined}
                    onClick={() => setSelected(s.id)}
                  >
                    <span className="toolset-name">{toolSetName(s, t)}</span>
                    {/* The user's tools, as the overview counts them; the size only in the tooltip (issue 33). */}
                    <span
                      className="small toolset-meta"
                      title={t('served.size', { size: formatBytes(summary?.bytes ?? 0), pages: summary?.pages ?? 0 })}
                    >
                      {t('served.summary', { count: Math.max(0, (summary?.toolCount ?? 0) - (summary?.appTools ?? 0)) })}
                    </span>
                    <span className="small toolset-meta">{users.length > 0 ? users.join(t('list.separator')) : t('toolSets.unused')}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
        <section className="panel toolset-detail" aria-label={toolSetName(set, t)}>
          <ToolSetHeader key={set.id} set={set} users={toolSetUsers(settings, set.id)} />
          <ToolSetEditor set={set} />
        </section>
      </div>
      {creating ? <NewToolSetDialog onClose={() => setCreating(false)} onCreated={setSelected} /> : null}
    </div>
  );
}
