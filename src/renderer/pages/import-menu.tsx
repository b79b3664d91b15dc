import { useRef, useState } from 'react';

import type { ImportPreview, KnownClient } from '../../shared/import';
import { useApp } from '../app-context';
import { ImportReading, useImportReader } from '../components/import-reading';
import { Menu } from '../components/menu';

/** "Import existing setup…": the MCP clients found on this machine, plus a file picker. */
export function ImportMenu({ onPreview }: { onPreview: (preview: ImportPreview) => void }) {
  const { store, t, toast } = useApp();
  const [clients, setClients] = useState<KnownClient[] | undefined>();
  const picker = useRef<HTMLInputElement>(null);
  const { reading, readFile, readPath } = useImportReader(onPreview);
  const found = clients?.filter((c) => c.exists) ?? [];
  return (
    <>
      <Menu
        label={t('import.from')}
        onOpen={() => void store.api.discoverClients().then(setClients, (e: Error) => toast(e.message, 'error'))}
        items={[
          ...found.map((c) => ({
            label: t(`format.${c.client}`),
            title: c.path,
            onSelect: () => void readPath(c.path),
          })),
          { label: t('import.chooseFile'), onSelect: () => picker.current?.click() },
        ]}
        footer={clients === undefined ? t('app.loading') : found.length === 0 ? t('import.noneFound') : undefined}
      />
      <input
        ref={picker}
        type="file"
        accept=".json,.jsonc,.toml,.txt"
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void readFile(file);
        }}
      />
      <ImportReading reading={reading} />
    </>
  );
}
