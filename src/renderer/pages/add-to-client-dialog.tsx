import { useEffect, useState } from 'react';

import { type AddToClient, type AddToClientPreview, LOCAL_CLIENT_NAMES } from '../../shared/tool-set-api';
import { useApp } from '../app-context';
import { DialogFooter } from '../components/dialog-footer';
import { ToolSetPicker } from '../components/tool-set-picker';
import { Button, Dialog, Field, Notice, Switch } from '../components/ui';
import { useCommand } from '../components/use-command';
import { shownMasked } from '../masked';
import { useStore } from '../store/bridge-store';

/** Copies text, saying so (or that it could not). */
export function useCopy(): (text: string) => void {
  const { t, toast } = useApp();
  return (text) =>
    void navigator.clipboard.writeText(text).then(
      () => toast(t('localServer.copied')),
      () => toast(t('localServer.copyFailed'), 'error'),
    );
}

/**
 * "Add to Cursor / Claude Desktop / VS Code / Cherry Studio": which set, which file, what changes
 * (the entry shown with its token masked), then the write. Cherry Studio gets a link and JSON.
 */
export function AddToClientDialog(props: { client: AddToClient; toolSet: string; onClose: () => void; onAdded?: () => void }) {
  const { store, t, language, toast } = useApp();
  const copy = useCopy();
  const run = useCommand();
  const localServer = useStore(store, (d) => d.state.localServer);
  const [toolSet, setToolSet] = useState(props.toolSet);
  const [preview, setPreview] = useState<AddToClientPreview | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  // A file others can read gets the token only if the user keeps it theirs: offered, on by default.
  const [makePrivate, setMakePrivate] = useState(true);
  const client = LOCAL_CLIENT_NAMES[props.client];

  useEffect(() => {
    let live = true;
    store.api.previewAddToClient({ client: props.client, toolSet }).then(
      (p) => {
        if (!live) return;
        setError(undefined);
        setPreview(p);
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [store, props.client, toolSet]);

  const apply = async () => {
    if (!preview) return;
    setBusy(true);
    try {
      const result = await store.api.applyAddToClient({ id: preview.id, ...(preview.openToOthers ? { makePrivate } : {}) });
      await store.refreshSettings();
      // Headless in a browser: the page itself hands the link to Cherry Studio.
      if (preview.link && !result.opened) window.location.assign(preview.link);
      toast(preview.link ? t('addTo.opened') : t('addTo.done', { client }));
      props.onAdded?.();
      props.onClose();
    } catch (e) {
      toast((e as Error).message, 'error');
      setBusy(false);
    }
  };

  const isCherry = props.client === 'cherry-studio';
  return (
    <Dialog
      wide
      title={t('addTo.title', { client })}
      onClose={props.onClose}
      footer={
        <DialogFooter
          onCancel={props.onClose}
          extra={
            isCherry && preview?.copyText ? <Button onClick={() => copy(preview.copyText as string)}>{t('addTo.copyJson')}</Button> : null
          }
          primary={{
            label: isCherry ? t('addTo.openCherry') : t('addTo.apply'),
            disabled: !preview || busy || (preview.action === 'unchanged' && !(preview.openToOthers && makePrivate)),
            onClick: () => void apply(),
          }}
        />
      }
    >
      <div className="form">
        <Field label={t('toolSets.pick')}>
          {(id) => <ToolSetPicker id={id} label={t('toolSets.pick')} value={toolSet} onChange={setToolSet} />}
        </Field>
        {error ? <Notice kind="error">{error}</Notice> : null}
        {preview ? (
          <>
            {localServer?.state !== 'listening' ? (
              // The entry alone connects nothing: the app reaches the tools only while the local server runs.
              <Notice kind="warn">
                <div className="card-row">
                  <span>
                    {[t('addTo.notRunning', { client }), preview.turnsServerOn ? t('addTo.turnsOn') : localServer?.lastError]
                      .filter(Boolean)
                      .join(language === 'zh-CN' ? '' : ' ')}
                  </span>
                  <Button small onClick={() => void run(() => store.api.updateLocalServer({ enabled: true }))}>
                    {t('addTo.startNow')}
                  </Button>
                </div>
              </Notice>
            ) : null}
            {isCherry ? (
              <p className="small">{t('addTo.cherryHint')}</p>
            ) : (
              <div>
                <div className="label-like">{t('addTo.file')}</div>
                <div className="mono small break">{preview.path}</div>
                <p className="small">
                  {preview.exists
                    ? t(`addTo.action.${preview.action}`, { name: preview.entryName, count: preview.otherServers.length })
                    : t('addTo.newFile')}
                </p>
                {preview.openToOthers ? (
                  <>
                    <Notice kind="warn">{t('addTo.openToOthers', { mode: preview.openToOthers })}</Notice>
                    <Switch showLabel label={t('addTo.makePrivate')} checked={makePrivate} onChange={setMakePrivate} />
                  </>
                ) : null}
              </div>
            )}
            <div>
              <div className="label-like">{t('addTo.entry')}</div>
              <pre className="mono small code-block">{`"${preview.entryName}": ${shownMasked(preview.entry, t)}`}</pre>
            </div>
          </>
        ) : null}
      </div>
    </Dialog>
  );
}
