import { type FormEvent, useState } from 'react';

import { useApp } from '../app-context';
import { DialogFooter } from '../components/dialog-footer';
import { toolSetName } from '../components/tool-set-picker';
import { Dialog, Field } from '../components/ui';
import { useCommand } from '../components/use-command';
import { useStore } from '../store/bridge-store';

/** Name a new set, and start it empty or as a copy of another. */
export function NewToolSetDialog(props: { onClose: () => void; onCreated: (id: string) => void }) {
  const { store, t, toast } = useApp();
  const run = useCommand();
  const sets = useStore(store, (d) => d.settings?.toolSets);
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const trimmed = name.trim();
  const problem = !trimmed
    ? t('toolSets.nameEmpty')
    : sets?.some((s) => s.name === trimmed || toolSetName(s, t) === trimmed)
      ? t('toolSets.nameTaken')
      : undefined;
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (problem) return;
    setBusy(true);
    let created: { id: string; name: string } | undefined;
    const ok = await run(async () => (created = await store.api.addToolSet({ name: trimmed, ...(from ? { copyFrom: from } : {}) })));
    setBusy(false);
    if (!ok || !created) return;
    toast(t('toolSets.created', { name: created.name }));
    props.onCreated(created.id);
    props.onClose();
  };
  return (
    <Dialog
      title={t('toolSets.newTitle')}
      onClose={props.onClose}
      footer={
        <DialogFooter onCancel={props.onClose} primary={{ label: t('toolSets.create'), disabled: busy, onClick: () => void submit() }} />
      }
    >
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <Field label={t('toolSets.name')} error={touched ? problem : undefined}>
          {(id) => (
            <input
              id={id}
              placeholder={t('toolSets.namePlaceholder')}
              value={name}
              maxLength={64}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field label={t('toolSets.startFrom')}>
          {(id) => (
            <select id={id} value={from} onChange={(e) => setFrom(e.target.value)}>
              <option value="">{t('toolSets.startEmpty')}</option>
              {(sets ?? []).map((set) => (
                <option key={set.id} value={set.id}>
                  {t('toolSets.startCopy', { name: toolSetName(set, t) })}
                </option>
              ))}
            </select>
          )}
        </Field>
      </form>
    </Dialog>
  );
}
