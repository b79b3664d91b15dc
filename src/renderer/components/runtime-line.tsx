import { RUNTIME_LABEL } from '../../shared/runtime-need';
import type { ServerRuntime } from '../../shared/status';
import { useApp } from '../app-context';

/**
 * Which runtime runs a server when it is the one the app fetched (the user's own goes unsaid), and while
 * the app fetches it, a progress bar with the percent.
 */
export function RuntimeLine({ runtime }: { runtime: ServerRuntime | undefined }) {
  const { t } = useApp();
  if (!runtime) return null;
  const name = RUNTIME_LABEL[runtime.name];
  if (runtime.fetching) {
    const { percent } = runtime.fetching;
    const label = t('runtime.fetching', { runtime: name, version: runtime.version ?? '' });
    return (
      <div className="small runtime-line" role="status">
        {label}
        {percent !== undefined ? ` ${percent}%` : ''}{' '}
        <progress aria-label={label} max={100} {...(percent !== undefined ? { value: percent } : {})} />
      </div>
    );
  }
  // The user's own runtime running it is the ordinary case: nothing to say on every card (a missing one is the card's problem).
  if (runtime.from === 'yours') return null;
  // The app's, without a version: its download failed (the card's problem says why), it is tried again at the next start.
  const text = runtime.version ? t('runtime.app', { runtime: name, version: runtime.version }) : t('runtime.notYet', { runtime: name });
  return <div className="small muted runtime-line">{text}</div>;
}
