import type { ReactNode } from 'react';

import { useApp } from '../app-context';
import { Button } from './ui';

/** The action a dialog is for: without `onClick` it submits the dialog's form (as Enter does). */
export interface DialogAction {
  label: string;
  onClick?: () => void;
  disabled?: boolean;
  kind?: 'primary' | 'danger';
}

/**
 * Every dialog's footer in one order: side actions (Back, Reset, a mode switch, a summary) on the
 * left; on the right, other actions, then Cancel, then the main action last. Cancel does what Esc
 * and × do: the dialog's onClose. `dismiss: 'close'` where there is nothing left to cancel.
 */
export function DialogFooter(props: {
  onCancel: () => void;
  primary?: DialogAction;
  start?: ReactNode;
  extra?: ReactNode;
  dismiss?: 'cancel' | 'close';
}) {
  const { t } = useApp();
  const { primary } = props;
  return (
    <>
      {props.start}
      <span className="spacer" />
      {props.extra}
      <Button onClick={props.onCancel}>{props.dismiss === 'close' ? t('common.close') : t('common.cancel')}</Button>
      {primary ? (
        <Button
          kind={primary.kind ?? 'primary'}
          type={primary.onClick ? 'button' : 'submit'}
          disabled={primary.disabled}
          onClick={primary.onClick}
        >
          {primary.label}
        </Button>
      ) : null}
    </>
  );
}
