import { useEffect, useRef, useState } from 'react';

import { valuesFromServer } from '../../../shared/catalogue';
import { own } from '../../../shared/own';
import type { McpServerSettings } from '../../../shared/settings';
import { useApp } from '../../app-context';
import { useNow } from '../../components/use-now';
import { useCatalogueEntry } from './use-catalogue-entry';
import { isPathValue } from './use-path-checks';

/** How often the folders are checked again while the line shows (a stat each: the user may put one back at any time). */
const RECHECK_MS = 3000;

/**
 * Under a catalogue server that stopped or crashed: which of its folder and file values to check, by
 * the name the person typed it under ("请检查“允许访问的文件夹”：我的文档"), and that the folder is gone
 * when it is. A walkthrough saw the filesystem server's "None of the specified directories are
 * accessible" with advice that never named the field, then one that named it but not that it was gone.
 * The folders are checked again at each change of the server's state (`attempt`) and every few seconds
 * while the line shows: a folder put back is no longer called gone, whether the server is waiting, trying
 * again or given up (it was, for as long as the card stayed).
 */
export function ValueCheckLine({ server, attempt }: { server: McpServerSettings; attempt: string }) {
  const { t, language, store } = useApp();
  const entry = useCatalogueEntry(server.catalogue);
  const values = entry ? valuesFromServer(entry, server) : undefined;
  const places = entry && values ? entry.values.filter(isPathValue).filter((v) => own(values, v.id)) : [];
  const asked = places.map((v) => ({ value: own(values ?? {}, v.id) ?? '', kind: v.kind }));
  const key = JSON.stringify(asked);
  // The last answer stays until the next replaces it: no flicker at each check.
  const [gone, setGone] = useState<{ key: string; missing: boolean[] } | undefined>();
  const tick = useNow(RECHECK_MS);
  // The values shown now (none once the line is gone), and those a check is under way for: a folder slow
  // to answer (a share that stopped answering) is not asked again meanwhile, or stats would pile up in
  // the app's four I/O threads, where its DNS lookups and file work wait too.
  const shown = useRef<string | undefined>(key);
  const checking = useRef<string | undefined>(undefined);
  useEffect(() => {
    shown.current = key;
    return () => {
      shown.current = undefined;
    };
  }, [key]);
  useEffect(() => {
    const values = JSON.parse(key) as typeof asked;
    if (values.length === 0 || checking.current === key) return;
    checking.current = key;
    store.api
      .checkPathValues({ values })
      .then(
        (answer) =>
          shown.current === key &&
          setGone({ key, missing: answer.checks.map((c, i) => values[i]?.kind === 'folder' && c.problem === 'missing') }),
        () => undefined,
      )
      .finally(() => {
        if (checking.current === key) checking.current = undefined;
      });
  }, [key, attempt, tick, store]);
  return places.map((v, i) => {
    const label = language === 'zh-CN' ? v.label.zh : v.label.en;
    const value = own(values ?? {}, v.id) ?? '';
    const missing = gone?.key === key && gone.missing[i] === true;
    return (
      <div key={v.id} className={`small value-check${missing ? ' error-text' : ''}`}>
        {t(missing ? 'values.folderGone' : 'values.check', { label, value })}
      </div>
    );
  });
}
