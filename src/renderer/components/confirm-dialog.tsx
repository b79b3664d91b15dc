import { useState } from 'react';

import { useApp } from '../app-context';
import { DialogFooter } from './dialog-footer';
import { Button, Dialog } from './ui';

/** "Remove X?" with Cancel and a red confirm button. */
export function ConfirmRemoveDialog(props: {
  title: string;
  body: string;
  onCancel: () => void;
  onConfirm: () => void;
  confirmLabel?: string;
}) {
  const { t } = useApp();
  return (
    <Dialog
      title={props.title}
      onClose={props.onCancel}
      footer={
        <DialogFooter
          onCancel={props.onCancel}
          primary={{ kind: 'danger', label: props.confirmLabel ?? t('common.remove'), onClick: props.onConfirm }}
        />
      }
    >
      <p>{props.body}</p>
    </Dialog>
  );
}

/** A Remove button that asks first. */
export function RemoveButton(props: { title: string; body: string; onConfirm: () => Promise<unknown> }) {
  const { t } = useApp();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button small kind="danger" onClick={() => setAsking(true)}>
        {t('common.remove')}
      </Button>
      {asking ? (
        <ConfirmRemoveDialog
          title={props.title}
          body={props.body}
          onCancel={() => setAsking(false)}
          onConfirm={() => void props.onConfirm().then(() => setAsking(false))}
        />
      ) : null}
    </>
  );
}
