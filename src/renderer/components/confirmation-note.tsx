import type { CallConfirmation } from '../../shared/status';
import { useApp } from '../app-context';

/** What became of a call held for the person's OK, in the window's language (the history's one row per call). */
export function ConfirmationNote({ confirmation }: { confirmation: CallConfirmation | undefined }) {
  const { t } = useApp();
  if (!confirmation || confirmation.state === 'waiting') return null;
  const where = confirmation.in ?? 'window';
  const text =
    confirmation.state === 'allowed'
      ? t(`plain.confirmation.allowed.${where}`)
      : confirmation.state === 'denied'
        ? t(`plain.confirmation.denied.${where}`)
        : t(`plain.confirmation.${confirmation.state}`);
  return <div className="small muted">{text}</div>;
}
