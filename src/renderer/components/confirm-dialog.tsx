import { useApp } from '../app-context';
import { Button, Dialog } from './ui';

/** "Remove X?" with Cancel and a red confirm button. */
export function ConfirmRemoveDialog(props: { title: string; body: string; onCancel: () => void; onConfirm: () => void }) {
  const { t } = useApp();
  return (
    <Dialog
      title={props.title}
      onClose={props.onCancel}
      footer={
        <>
          <Button onClick={props.onCancel}>{t('common.cancel')}</Button>
          <Button kind="danger" onClick={props.onConfirm}>
            {t('common.remove')}
          </Button>
        </>
      }
    >
      <p>{props.body}</p>
    </Dialog>
  );
}
