import { hasMessage, type Translate } from '../../shared/i18n/translate';
import type { ServerStatus, SkippedTool } from '../../shared/status';
import { useApp } from '../app-context';

/** Why one listed tool is not served, in the UI's language (a reason new to us reads as "not valid"). */
export function skippedReason(t: Translate, skipped: SkippedTool): string {
  const key = `servers.skipped.${skipped.reason}`;
  const params = { times: skipped.times ?? 2, path: skipped.path || '—' };
  const why = hasMessage(key) ? t(key, params) : t('servers.skipped.invalid', params);
  return skipped.near !== undefined ? `${why}${t('servers.skipped.near', { near: skipped.near })}` : why;
}

const NAMES = new Set(['noSuchAction', 'noSuchOperation']);

/** On a running server's card: the tools it listed that are not served, and why, so the user can tell its author. */
export function SkippedTools({ status }: { status: ServerStatus }) {
  const { t } = useApp();
  const count = status.skippedToolCount ?? status.skippedTools?.length ?? 0;
  if (status.state !== 'running' || count === 0) return null;
  const shown = status.skippedTools ?? [];
  return (
    <details className="skipped-tools small">
      <summary className="warn-text">{t('servers.skipped', { count })}</summary>
      {/* A name the user misspelled (a web service's action or operation) is theirs to fix, not the server author's. */}
      <div className="muted">{t(shown.every((s) => NAMES.has(s.reason)) ? 'servers.skipped.hintNames' : 'servers.skipped.hint')}</div>
      <ul>
        {shown.map((skipped) => (
          <li key={skipped.position}>
            <span className="mono">{skipped.name ?? t('servers.skipped.unnamed', { position: skipped.position })}</span>:{' '}
            {skippedReason(t, skipped)}
          </li>
        ))}
        {count > shown.length ? <li className="muted">…</li> : null}
      </ul>
    </details>
  );
}
