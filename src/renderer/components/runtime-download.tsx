import { useEffect, useState } from 'react';

import { presetInUse } from '../../shared/mirrors';
import { problem } from '../../shared/problem';
import type { RuntimeFetch } from '../../shared/runtime-fetch';
import { RUNTIME_LABEL, type RuntimeName } from '../../shared/runtime-need';
import { runtimeAwaited } from '../../shared/sign-in-status';
import type { ServerStatus } from '../../shared/status';
import { useApp } from '../app-context';
import { useStore } from '../store/bridge-store';
import { ProblemText } from './problem-text';
import { Button } from './ui';

import '../add.css';

/** The runtime a failed server waits for, if that is why it failed (missing here, its download failed or was refused). */
export function runtimeWaitedFor(status: ServerStatus): RuntimeName | undefined {
  const label = runtimeAwaited(status);
  return label === undefined ? undefined : (Object.keys(RUNTIME_LABEL) as RuntimeName[]).find((name) => RUNTIME_LABEL[name] === label);
}

/** Whether this window can ask the app to download a runtime (the desktop app; a headless run with its web page). */
export function useRuntimeDownload(): boolean {
  const { store } = useApp();
  return useStore(store, (d) => d.host?.runtimeDownload === true);
}

/**
 * Fetching a runtime into the app's folder when asked (`download`, which answers whether it came),
 * and how that goes (`shown`), from the bridge's events: every place showing the same runtime says it.
 */
export function useRuntimeFetch(runtime: RuntimeName | undefined) {
  const { store } = useApp();
  const [shown, setShown] = useState<RuntimeFetch | undefined>();
  useEffect(
    () => (runtime ? store.api.on('runtimeFetch', (event) => event.runtime === runtime && setShown(event)) : undefined),
    [store, runtime],
  );
  const download = async (): Promise<boolean> => {
    if (!runtime) return true;
    setShown({ runtime, state: 'fetching' });
    try {
      const answer = await store.api.fetchRuntime({ runtime });
      setShown('problem' in answer ? { runtime, state: 'failed', problem: answer.problem } : { runtime, state: 'done', ...answer });
      if ('problem' in answer) return false;
      // The host's runtimes change: the catalogue and the cards read them again.
      await store.refreshSettings();
      return true;
    } catch (error) {
      const name = RUNTIME_LABEL[runtime];
      setShown({
        runtime,
        state: 'failed',
        problem: problem('server.runtimeDownloadFailed', { runtime: name, reason: (error as Error).message }),
      });
      return false;
    }
  };
  return { shown, download };
}

/** A runtime's download under way: said, with its progress bar. */
export function RuntimeFetching({ shown }: { shown: RuntimeFetch & { state: 'fetching' } }) {
  const { t } = useApp();
  const label = t('add.runtimeFetching', { runtime: RUNTIME_LABEL[shown.runtime] });
  return (
    <div className="small runtime-line runtime-download" role="status">
      {label}
      {shown.percent !== undefined ? ` ${shown.percent}%` : ''}{' '}
      <progress aria-label={label} max={100} {...(shown.percent !== undefined ? { value: shown.percent } : {})} />
    </div>
  );
}

/**
 * What the runtime is for, in the person's words, and where it will come from (the sources in use;
 * said to be chosen for them until they choose): said once, before its name is used alone.
 */
export function RuntimeSource({ runtime }: { runtime: RuntimeName }) {
  const { store, t } = useApp();
  const mirrors = useStore(store, (d) => d.settings?.mirrors);
  const unchosen = useStore(store, (d) => d.host?.unchosenMirrors ?? 'default');
  const preset = presetInUse(mirrors ?? {}, unchosen);
  const params = { what: t(`runtime.purpose.${runtime}`), source: t(`runtime.source.${preset}`) };
  return <span className="runtime-source">{t(mirrors?.preset === undefined ? 'runtime.from.auto' : 'runtime.from.chosen', params)}</span>;
}

/**
 * "Download uv": the app fetches the runtime into its own folder now (from the download sources chosen),
 * then starts the servers that waited for it. Progress and the outcome are said here, in every place
 * that shows the button at once, from the bridge's events.
 */
export function RuntimeDownload(props: { runtime: RuntimeName; onStart?: () => void }) {
  const { t } = useApp();
  const allowed = useRuntimeDownload();
  const { runtime } = props;
  const { shown, download } = useRuntimeFetch(runtime);
  if (!allowed) return null;
  const name = RUNTIME_LABEL[runtime];
  if (shown?.state === 'fetching') return <RuntimeFetching shown={shown} />;
  if (shown?.state === 'done')
    return (
      <div className="small ok-text runtime-download" role="status">
        {t('add.runtimeDone', { runtime: name, version: shown.version })}
      </div>
    );
  return (
    <div className="runtime-download">
      {shown?.state === 'failed' ? null : (
        <div className="small">
          <RuntimeSource runtime={runtime} />
        </div>
      )}
      {shown?.state === 'failed' ? <ProblemText problem={shown.problem} /> : null}
      {shown?.state === 'failed' && shown.problem.params.detail !== undefined ? (
        // The address and the code, for whoever helps: after the plain words, small, folded.
        <details className="small muted technical-detail">
          <summary>{t('runtime.technicalDetail')}</summary>
          <span className="mono">{String(shown.problem.params.detail)}</span>
        </details>
      ) : null}
      <Button
        small
        kind="primary"
        onClick={() => {
          props.onStart?.();
          void download();
        }}
      >
        {t('add.downloadRuntime', { runtime: name })}
      </Button>
    </div>
  );
}
