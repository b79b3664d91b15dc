import { useState } from 'react';

import type { CatalogTool } from '../../shared/status';
import { useApp } from '../app-context';
import { DialogFooter } from '../components/dialog-footer';
import { Button, Dialog, Field } from '../components/ui';
import { useCommand } from '../components/use-command';
import { formatBytes } from '../format';

import '../components/serving.css';

/**
 * Replaces a tool's description with the user's own (say, in Chinese): xiaozhi's model and the
 * router's search both read it. The server's own text stays visible, and can be restored.
 */
export function ToolDescriptionDialog({ tool, onClose }: { tool: CatalogTool; onClose: () => void }) {
  const { store, t, toast } = useApp();
  const run = useCommand();
  const original = tool.originalDescription ?? tool.description;
  const [text, setText] = useState(tool.description);
  const edited = tool.originalDescription !== undefined;
  const save = (description: string | null) =>
    void run(() => store.api.setToolDescription({ server: tool.server, tool: tool.originalName, description })).then((ok) => {
      if (!ok) return;
      toast(t('describe.saved', { name: tool.name }));
      onClose();
    });
  const unchanged = text === tool.description;
  // What this tool will take in tools/list with the new text.
  const jsonBytes = (value: string) => new TextEncoder().encode(JSON.stringify(value)).length;
  const bytes = tool.bytes - jsonBytes(tool.description) + jsonBytes(text);
  return (
    <Dialog
      wide
      title={t('describe.title', { name: tool.name })}
      onClose={onClose}
      footer={
        <DialogFooter
          onCancel={onClose}
          start={
            edited ? (
              <Button kind="ghost" onClick={() => save(null)}>
                {t('describe.reset')}
              </Button>
            ) : null
          }
          primary={{ label: t('common.save'), disabled: unchanged, onClick: () => save(text.trim() === original.trim() ? null : text) }}
        />
      }
    >
      <div className="form">
        <Field label={t('describe.label')} hint={`${t('describe.hint')} ${t('describe.size', { size: formatBytes(bytes) })}`}>
          {(id) => <textarea id={id} rows={5} value={text} onChange={(e) => setText(e.target.value)} />}
        </Field>
        <div>
          <div className="label-like">{t('describe.original')}</div>
          <div className="small description-original">{original || <span className="muted">{t('tools.noDescription')}</span>}</div>
        </div>
      </div>
    </Dialog>
  );
}
