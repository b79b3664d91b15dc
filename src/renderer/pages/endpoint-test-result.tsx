import { useState } from 'react';

import type { EndpointTest } from '../../shared/endpoint-test';
import { useApp } from '../app-context';
import { ProblemText } from '../components/problem-text';
import { Button } from '../components/ui';
import { formatDuration } from '../format';

/** Runs "Test connection" and shows each step: reachable, token accepted, tools listed, time. */
export function useEndpointTest(run: () => Promise<EndpointTest>) {
  const { toast } = useApp();
  const [result, setResult] = useState<EndpointTest | undefined>();
  const [testing, setTesting] = useState(false);
  const start = async () => {
    setTesting(true);
    setResult(undefined);
    try {
      setResult(await run());
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      setTesting(false);
    }
  };
  return { result, testing, start, clear: () => setResult(undefined) };
}

export function TestButton(props: { testing: boolean; onClick: () => void; disabled?: boolean; small?: boolean }) {
  const { t } = useApp();
  return (
    <Button small={props.small} onClick={props.onClick} disabled={props.testing || props.disabled}>
      {props.testing ? t('endpoints.testing') : t('endpoints.test')}
    </Button>
  );
}

/** `notYetAdded`: tested from the add form, so a good result says that adding it is the next step. */
export function EndpointTestResult({ result, notYetAdded = false }: { result: EndpointTest; notYetAdded?: boolean }) {
  const { t } = useApp();
  const step = (ok: boolean | undefined, text: string) => (
    <li className={ok === undefined ? 'step-skipped' : ok ? 'step-ok' : 'step-bad'}>
      <span className="step-mark" aria-hidden="true">
        {ok === undefined ? '–' : ok ? '✓' : '✕'}
      </span>
      {text}
    </li>
  );
  const listed = result.toolsListed;
  // Closed by the other side before it read the tools: a link would reconnect by itself, a test just says what happened.
  const closedEarly = result.error?.code === 'endpoint.closed' || result.error?.code === 'endpoint.idle';
  // Something answered there, but not a xiaozhi endpoint: the second step says so in plain words.
  const notXiaozhi = result.error?.code === 'endpoint.notXiaozhi';
  const closeCode = closedEarly ? Number(result.error?.params?.code ?? 0) : 0;
  // The third step: what xiaozhi read, or why not, as is normal for the kind of endpoint.
  const [listedOk, listedText]: [boolean | undefined, string] = !result.accepted
    ? [undefined, t('endpoints.test.skipped')]
    : listed !== undefined && result.userTools === 0
      ? [true, t('endpoints.test.listedNone')]
      : listed !== undefined
        ? [
            true,
            t(result.listedVia === 'relay' ? 'endpoints.test.listedRelay' : 'endpoints.test.listed', { count: result.userTools ?? listed }),
          ]
        : result.note === 'listsOnDeviceTalk'
          ? [true, t('endpoints.test.deviceTalks')]
          : result.error?.code === 'endpoint.replaced'
            ? [false, t('endpoints.test.heldByOther')]
            : closedEarly || result.error?.code === 'endpoint.badFrame'
              ? [false, t('endpoints.test.closedEarly')]
              : [false, t('endpoints.test.notListed', { seconds: result.waitedSeconds })];
  return (
    <section className="test-result" aria-label={t('endpoints.testTitle')} aria-live="polite">
      <ul className="steps">
        {step(result.reachable, result.reachable ? t('endpoints.test.reachable') : t('endpoints.test.unreachable'))}
        {step(
          result.reachable ? result.accepted : undefined,
          !result.reachable
            ? t('endpoints.test.skipped')
            : result.accepted
              ? t('endpoints.test.accepted')
              : notXiaozhi
                ? t('endpoints.test.notXiaozhi')
                : closedEarly
                  ? t('endpoints.test.refusedClose')
                  : t('endpoints.test.refused'),
        )}
        {step(listedOk, listedText)}
      </ul>
      {/* Three ticks left the sidebar at "no endpoint yet" with nothing saying what to press (issue 33). */}
      {notYetAdded && result.reachable && result.accepted && listedOk ? (
        <p className="test-next">{t('endpoints.test.readyToAdd')}</p>
      ) : null}
      <div className="small muted">{t('endpoints.test.time', { duration: formatDuration(result.durationMs, t) })}</div>
      {/* Another program holding it is the third step's whole story. */}
      {result.error?.code === 'endpoint.replaced' ? null : (
        <ProblemText
          problem={result.error}
          text={result.errorText}
          {...(closedEarly
            ? { hint: t(result.accepted ? 'endpoints.test.closedHint' : 'endpoints.test.refusedCloseHint', { code: closeCode }) }
            : {})}
        />
      )}
    </section>
  );
}
