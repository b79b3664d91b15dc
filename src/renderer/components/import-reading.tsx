import { useCallback, useEffect, useState } from 'react';

import type { ImportPreview } from '../../shared/import';
import { useApp } from '../app-context';
import { formatBytes } from '../format';

const MAX_BYTES = 4 * 1024 * 1024;

/** A config being read and compared with ours: its name, its size when known, since when. */
export interface Reading {
  name: string;
  bytes?: number;
  since: number;
}

/**
 * Reads a config to import (a file picked or dropped, or a known client's file by its path) and hands
 * its preview on; `reading` says what is being read meanwhile. A big file (thousands of servers) takes
 * tens of seconds to compare with ours: without it the window showed nothing all that time.
 */
export function useImportReader(onPreview: (preview: ImportPreview) => void) {
  const { store, t, toast } = useApp();
  const [reading, setReading] = useState<Reading | undefined>();
  const read = useCallback(
    async (what: Omit<Reading, 'since'>, load: () => Promise<ImportPreview>) => {
      setReading({ ...what, since: Date.now() });
      try {
        onPreview(await load());
      } catch (error) {
        toast((error as Error).message, 'error');
      } finally {
        setReading(undefined);
      }
    },
    [onPreview, toast],
  );
  const readFile = useCallback(
    async (file: File) => {
      if (file.size > MAX_BYTES) return toast(t('import.tooBig', { name: file.name }), 'error');
      await read({ name: file.name, bytes: file.size }, async () =>
        store.api.previewImport({ source: file.name, text: await file.text() }),
      );
    },
    [read, store, t, toast],
  );
  const readPath = useCallback((path: string) => read({ name: path }, () => store.api.previewImportFile({ path })), [read, store]);
  return { reading, readFile, readPath };
}

/** "Reading claude_desktop_config.json (3.9 MB)… 12 s": shown while a config is read, in the seconds it takes. */
export function ImportReading({ reading }: { reading: Reading | undefined }) {
  const { t } = useApp();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!reading) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [reading]);
  if (!reading) return null;
  const seconds = Math.max(0, Math.floor((now - reading.since) / 1000));
  return (
    <div className="import-reading" role="status">
      {reading.bytes !== undefined
        ? t('import.reading', { name: reading.name, size: formatBytes(reading.bytes) })
        : t('import.readingPath', { name: reading.name })}
      {seconds > 0 ? <span className="muted"> {t('import.readingFor', { seconds })}</span> : null}
    </div>
  );
}
