import { useState } from 'react';

import type { SentenceTry } from '../../shared/model-api';
import { modelReady } from '../../shared/model-settings';
import { useApp } from '../app-context';
import { PagePanels } from '../components/page-panels';
import { ProblemText } from '../components/problem-text';
import { Button, Field, Notice, SelectField } from '../components/ui';
import { formatBytes } from '../format';
import { useStore } from '../store/bridge-store';
import { ModelSettingsPanel } from './model-settings-panel';
import { SentenceSetsPanel } from './sentence-sets-panel';

import '../try-sentence.css';

/** The value of the endpoint choice that means "every tool" (no endpoint yet). */
const EVERY = '';

/**
 * "试一句话 / Try a sentence": what the person would say, put to the user's model with exactly the tools
 * an endpoint serves; the tool it picks, its arguments and our check, and — only with "Ask and run" — the
 * result under the voice policies and what the model says then. The model is chosen below.
 */
export function TrySentencePage() {
  const { store, t } = useApp();
  const settings = useStore(store, (d) => d.settings);
  const [endpoint, setEndpoint] = useState<string>(EVERY);
  const [sentence, setSentence] = useState('');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState<SentenceTry | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [pin, setPin] = useState('');
  if (!settings) return null;
  const ready = modelReady(settings.model);
  const endpoints = settings.endpoints;
  const chosen = endpoints.some((e) => e.id === endpoint) ? endpoint : (endpoints[0]?.id ?? EVERY);
  const ask = async (run: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      setTried(await store.api.trySentence({ sentence, run, ...(chosen !== EVERY ? { endpoint: chosen } : {}) }));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const confirm = async (session: string) => {
    setBusy(true);
    try {
      setTried(await store.api.confirmSentence({ session, pin }));
      setPin('');
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page try-page">
      <h1>{t('nav.trySentence')}</h1>
      <PagePanels />
      <section className="panel form" aria-label={t('try.sentence')}>
        <p className="field-hint">{t('try.lead')}</p>
        {!ready ? (
          <Notice kind="info">
            {t('try.noModel')}{' '}
            {/* The model form is below every tool's sentences, a long scroll away: focusing its first field brings it into view. */}
            <Button onClick={() => document.querySelector<HTMLSelectElement>('[aria-labelledby="model-title"] select')?.focus()}>
              {t('try.noModel.go')}
            </Button>
          </Notice>
        ) : null}
        {endpoints.length > 0 ? (
          <SelectField
            label={t('try.endpoint')}
            value={chosen}
            options={endpoints.map((e) => [e.id, e.name] as const)}
            onChange={(id) => setEndpoint(id)}
          />
        ) : (
          <p className="small muted">
            {t('try.endpoint')}: {t('try.everyTool')}
          </p>
        )}
        <Field label={t('try.sentence')} hint={t('try.runNote')}>
          {(id) => (
            <textarea
              id={id}
              rows={2}
              value={sentence}
              placeholder={t('try.placeholder')}
              onChange={(e) => setSentence(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey && ready && sentence.trim() !== '' && !busy) {
                  e.preventDefault();
                  void ask(false);
                }
              }}
            />
          )}
        </Field>
        <div className="form-actions">
          <Button kind="primary" disabled={!ready || busy || sentence.trim() === ''} onClick={() => void ask(false)}>
            {busy ? t('try.asking') : t('try.ask')}
          </Button>
          <Button disabled={!ready || busy || sentence.trim() === ''} onClick={() => void ask(true)}>
            {t('try.askRun')}
          </Button>
        </div>
        {error ? <Notice kind="error">{error}</Notice> : null}
        {tried ? <TryResult tried={tried} pin={pin} setPin={setPin} confirm={confirm} busy={busy} /> : null}
      </section>
      <SentenceSetsPanel endpoint={chosen !== EVERY ? chosen : undefined} ready={ready} />
      <ModelSettingsPanel />
    </div>
  );
}

/** What the model did with the sentence, line by line, as the CLI's `ask` prints it. */
function TryResult(props: {
  tried: SentenceTry;
  pin: string;
  setPin: (pin: string) => void;
  confirm: (session: string) => Promise<void>;
  busy: boolean;
}) {
  const { t } = useApp();
  const { tried } = props;
  const pick = tried.pick;
  return (
    <div className="try-result" role="status" aria-live="polite">
      {tried.functions > 0 ? (
        <p className="small muted">
          {t('try.given', {
            count: tried.functions,
            size: formatBytes(tried.bytes),
            mode: t(tried.mode === 'router' ? 'try.mode.router' : 'try.mode.all'),
          })}
        </p>
      ) : null}
      {tried.finds.map((find, i) => (
        <p key={i} className="small">
          {t('try.find', { query: find.query })} →{' '}
          {find.found.length > 0 ? t('try.found', { names: find.found.join(', ') }) : t('try.foundNone')}
        </p>
      ))}
      {pick ? (
        <div className="try-pick">
          <p>
            <strong>{t('try.picks')}</strong> <code>{pick.name}</code>
            {pick.via === 'call_tool' ? <span className="muted"> {t('try.viaCallTool')}</span> : null}
            {pick.server !== undefined ? <span className="muted"> · {t('try.ofServer', { server: pick.server })}</span> : null}
          </p>
          <p className="small">{pick.argumentsText !== undefined ? t('try.argumentsNotJson') : t('try.arguments')}</p>
          <pre className="mono try-arguments">{pick.argumentsText ?? JSON.stringify(pick.arguments ?? {}, null, 2)}</pre>
          <p className={pick.check === 'ok' ? 'ok-text' : 'error-text'}>
            {pick.check === 'ok'
              ? t('try.check.ok')
              : pick.check === 'refused'
                ? t('try.check.refused', { text: pick.checkText ?? '' })
                : t('try.check.unknown')}
          </p>
        </div>
      ) : tried.answer !== undefined ? (
        <>
          <p>
            {t('try.noPick')} <q>{tried.answer}</q>
          </p>
          <p className="small muted">{t('try.noPick.hint')}</p>
        </>
      ) : !tried.problem ? (
        <p>{t('try.searching')}</p>
      ) : null}
      {tried.run?.held ? (
        <Notice kind="warn">{t(tried.run.held === 'pin' ? 'try.held.pin' : 'try.held.window')}</Notice>
      ) : tried.run ? (
        <div>
          <p className="small">{t(tried.run.isError ? 'try.resultError' : 'try.result')}</p>
          <pre className="mono try-arguments">{tried.run.text}</pre>
        </div>
      ) : null}
      {tried.run?.held === 'pin' && tried.session ? (
        <div className="form-actions">
          <Field label={t('try.pin')}>
            {(id) => (
              <input id={id} inputMode="numeric" autoComplete="off" value={props.pin} onChange={(e) => props.setPin(e.target.value)} />
            )}
          </Field>
          <Button disabled={props.busy || props.pin.trim() === ''} onClick={() => void props.confirm(tried.session as string)}>
            {t('try.confirm')}
          </Button>
        </div>
      ) : null}
      {tried.said ? (
        <p>
          {t('try.said')} <q>{tried.said}</q>
        </p>
      ) : null}
      {tried.problem ? <ProblemText problem={tried.problem} /> : null}
      <p className="small muted">{t('try.requests', { count: tried.requests })}</p>
    </div>
  );
}
