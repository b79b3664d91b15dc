import { useEffect, useState } from 'react';

import { problem } from '../../shared/problem';
import type { RuntimeFetch } from '../../shared/runtime-fetch';
import { RUNTIME_LABEL, type RuntimeName } from '../../shared/runtime-need';
import type { ServerStatus } from '../../shared/status';
import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';
import { ProblemText } from './problem-text';
import { Button } from './ui';

import '../add.css';

/** Why a server waits for a runtime (missing here, its download failed or was refused), and which. */
const WAITING = new Set(['server.runtimeMissing', 'server.runtimeDownloadFailed', 'server.runtimeMismatch']);

/** The runtime a failed server waits for, if that is why it failed. */
export function runtimeWaitedFor(status: ServerStatus): RuntimeName | undefined {
  const cause = status.lastErrorCause;
  if (status.state !== 'failed' || !cause || !WAITING.has(cause.code)) return undefined;
  return (Object.keys(RUNTIME_LABEL) as RuntimeName[]).find((name) => RUNTIME_LABEL[name] === cause.params.runtime);
}

/** Whether this window can ask the app to download a runtime (the desktop app; a headless run with its web page). */
export function useRuntimeDownload(): boolean {
  const { store } = useApp();
  return useStore(store, (d) => d.host?.runtimeDownload === true);
}

/**
 * "Download uv": the app fetches the runtime into its own folder now (from the download sources chosen),
 * then starts the servers that waited for it. Progress and the outcome are said here, in every place
 * that shows the button at once (a card, the catalogue), from the bridge's events.
 */
export function RuntimeDownload(props: { runtime: RuntimeName; onStart?: () => void }) {
  const { store, t } = useApp();
  const allowed = useRuntimeDownload();
  const { runtime } = props;
  const [shown, setShown] = useState<RuntimeFetch | undefined>();
  useEffect(() => store.api.on('runtimeFetch', (event) => event.runtime === runtime && setShown(event)), [store, runtime]);
  if (!allowed) return null;
  const name = RUNTIME_LABEL[runtime];
  const download = async () => {
    props.onStart?.();
    setShown({ runtime, state: 'fetching' });
    try {
      const answer = await store.api.fetchRuntime({ runtime });
      setShown('problem' in answer ? { runtime, state: 'failed', problem: answer.problem } : { runtime, state: 'done', ...answer });
      // The host's runtimes change: the catalogue and the cards read them again.
      if (!('problem' in answer)) await store.refreshSettings();
    } catch (error) {
      setShown({
        runtime,
        state: 'failed',
        problem: problem('server.runtimeDownloadFailed', { runtime: name, reason: (error as Error).message }),
      });
    }
  };
  if (shown?.state === 'fetching') {
    const label = t('add.runtimeFetching', { runtime: name });
    return (
      <div className="small runtime-line runtime-download" role="status">
        {label}
        {shown.percent !== undefined ? ` ${shown.percent}%` : ''}{' '}
        <progress aria-label={label} max={100} {...(shown.percent !== undefined ? { value: shown.percent } : {})} />
      </div>
    );
  }
  if (shown?.state === 'done')
    return (
      <div className="small ok-text runtime-download" role="status">
        {t('add.runtimeDone', { runtime: name, version: shown.version })}
      </div>
    );
  return (
    <div className="runtime-download">
      {shown?.state === 'failed' ? <ProblemText problem={shown.problem} /> : null}
      {shown?.state === 'failed' && shown.problem.params.detail !== undefined ? (
        // The address and the code, for whoever helps: after the plain words, small, folded.
        <details className="small muted technical-detail">
          <summary>{t('runtime.technicalDetail')}</summary>
          <span className="mono">{String(shown.problem.params.detail)}</span>
        </details>
      ) : null}
      <Button small kind="primary" onClick={() => void download()}>
        {t('add.downloadRuntime', { runtime: name })}
      </Button>
    </div>
  );
}
