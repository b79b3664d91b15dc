import { useState } from 'react';

import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';
import { Button, Field } from './ui';
import { useCommand } from './use-command';

/** How many tools and bytes an endpoint may be served before the window warns and suggests router mode. */
export function BudgetSettings() {
  const { store, t, toast } = useApp();
  const limits = useStore(store, (d) => d.settings?.limits);
  const run = useCommand();
  const [toolsText, setToolsText] = useState<string | undefined>();
  const [bytesText, setBytesText] = useState<string | undefined>();
  if (!limits) return null;
  const toolsValue = toolsText ?? String(limits.budgetTools);
  const bytesValue = bytesText ?? String(limits.budgetBytes);
  const tools = Number(toolsValue);
  const bytes = Number(bytesValue);
  const toolsError = !Number.isInteger(tools) || tools < 1 ? t('settings.budgetError', { min: 1 }) : undefined;
  const bytesError = !Number.isInteger(bytes) || bytes < 1024 ? t('settings.budgetError', { min: 1024 }) : undefined;
  const save = () =>
    // Every limit is sent: a partial one would be completed with defaults on the way in.
    void run(() => store.api.updatePreferences({ limits: { ...limits, budgetTools: tools, budgetBytes: bytes } })).then((ok) => {
      if (!ok) return;
      setToolsText(undefined);
      setBytesText(undefined);
      toast(t('settings.saved'));
    });
  return (
    <section className="panel form">
      <h2>{t('settings.budget')}</h2>
      <p className="small muted settings-purpose">{t('settings.budgetPurpose')}</p>
      <div className="small muted">{t('settings.budgetHint')}</div>
      <div className="form-row">
        <Field label={t('settings.budgetTools')} error={toolsError}>
          {(id) => <input id={id} type="number" min="1" step="1" value={toolsValue} onChange={(e) => setToolsText(e.target.value)} />}
        </Field>
        <Field label={t('settings.budgetBytes')} term={t('settings.limitTerm')} error={bytesError}>
          {(id) => <input id={id} type="number" min="1024" step="1" value={bytesValue} onChange={(e) => setBytesText(e.target.value)} />}
        </Field>
      </div>
      <div>
        <Button
          kind="primary"
          disabled={Boolean(toolsError || bytesError) || (toolsText === undefined && bytesText === undefined)}
          onClick={save}
        >
          {t('common.save')}
        </Button>
      </div>
    </section>
  );
}
