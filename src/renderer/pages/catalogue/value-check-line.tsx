import { valuesFromServer } from '../../../shared/catalogue';
import { own } from '../../../shared/own';
import type { McpServerSettings } from '../../../shared/settings';
import { useApp } from '../../app-context';
import { useCatalogueEntry } from './use-catalogue-entry';

/**
 * Under a catalogue server that stopped or crashed: which of its folder and file values to check, by
 * the name the person typed it under ("请检查“允许访问的文件夹”：我的文档"). A walkthrough saw the
 * filesystem server's "None of the specified directories are accessible" with advice that never
 * named the field.
 */
export function ValueCheckLine({ server }: { server: McpServerSettings }) {
  const { t, language } = useApp();
  const entry = useCatalogueEntry(server.catalogue);
  const values = entry ? valuesFromServer(entry, server) : undefined;
  if (!entry || !values) return null;
  const places = entry.values.filter((v) => (v.kind === 'folder' || v.kind === 'file' || v.kind === 'path') && own(values, v.id));
  return places.map((v) => (
    <div key={v.id} className="small value-check">
      {t('values.check', { label: language === 'zh-CN' ? v.label.zh : v.label.en, value: own(values, v.id) ?? '' })}
    </div>
  ));
}
