import { useEffect, useRef, useState } from 'react';
import type { ImportPreview, KnownClient } from '../../shared/import';
import { useApp } from '../app-context';
import { Button } from '../components/ui';

/** "Import from…": the MCP clients found on this machine, plus a file picker. */
export function ImportMenu({ onPreview }: { onPreview: (preview: ImportPreview) => void }) {
  const { store, t, toast } = useApp();
  const [open, setOpen] = useState(false);
  const [clients, setClients] = useState<KnownClient[] | undefined>();
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open && !clients) void store.api.discoverClients().then(setClients, (e: Error) => toast(e.message, 'error'));
  }, [open, clients, store, toast]);
  const choose = async (client: KnownClient) => {
    setOpen(false);
    try {
      onPreview(await store.api.previewImportFile({ path: client.path }));
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  };
  const pick = async (file: File | undefined) => {
    if (!file) return;
    try {
      onPreview(await store.api.previewImport({ source: file.name, text: await file.text() }));
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  };
  const found = clients?.filter((c) => c.exists) ?? [];
  return (
    <div className="menu">
      <Button onClick={() => setOpen(!open)} aria-label={t('import.from')}>
        {t('import.from')} ▾
      </Button>
      {open ? (
        <ul className="menu-list" role="menu">
          {clients === undefined ? <li className="muted small">{t('app.loading')}</li> : null}
          {found.map((c) => (
            <li key={c.client} role="none">
              <button type="button" role="menuitem" onClick={() => void choose(c)} title={c.path}>
                {t(`format.${c.client}`)}
              </button>
            </li>
          ))}
          {clients !== undefined && found.length === 0 ? <li className="muted small">{t('import.noneFound')}</li> : null}
          <li role="none">
            <button type="button" role="menuitem" onClick={() => picker.current?.click()}>
              {t('import.chooseFile')}
            </button>
          </li>
        </ul>
      ) : null}
      <input ref={picker} type="file" accept=".json,.jsonc,.toml,.txt" hidden onChange={(e) => void pick(e.target.files?.[0]).then(() => (e.target.value = ''))} />
    </div>
  );
}
