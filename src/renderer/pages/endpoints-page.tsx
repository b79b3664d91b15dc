import { type FormEvent, useState } from 'react';

import { cleanEndpointUrl, type EndpointUrlRefusal } from '../../shared/endpoint-url';
import type { EndpointStatus } from '../../shared/status';
import { takenByOther } from '../../shared/status-summary';
import { useApp } from '../app-context';
import { RemoveButton } from '../components/confirm-dialog';
import { EndpointServing } from '../components/endpoint-serving';
import { SecretsNote } from '../components/host-notices';
import { EndpointAddress } from '../components/masked-text';
import { PagePanels } from '../components/page-panels';
import { PatiencePicker } from '../components/patience-picker';
import { ProblemText } from '../components/problem-text';
import { RenameForm } from '../components/rename-form';
import { endpointBadge, endpointTone } from '../components/status-tone';
import { ToolSetPicker } from '../components/tool-set-picker';
import { Button, EmptyState, Field, StatusBadge, Switch } from '../components/ui';
import { useCommand } from '../components/use-command';
import { shownMasked } from '../masked';
import { useStore } from '../store/bridge-store';
import { EndpointTestResult, TestButton, useEndpointTest } from './endpoint-test-result';

/** What the xiaozhi console gives: ws:// or wss://, usually with ?token=. */
export function validateEndpointUrl(url: string): EndpointUrlRefusal | undefined {
  const cleaned = cleanEndpointUrl(url, { joinLines: true });
  return cleaned.ok ? undefined : cleaned.reason;
}

export function AddEndpointForm(props: { onDone?: () => void }) {
  const { store, t, toast } = useApp();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(false);
  /** The endpoint that already has this address and token, as the engine said when it was last checked. */
  const [sameAs, setSameAs] = useState<string | undefined>();
  // What a paste brought along (quotes, MCP_ENDPOINT=, a trailing quote) is taken off, and said.
  const cleaned = cleanEndpointUrl(url, { joinLines: true });
  const problem = cleaned.ok ? undefined : cleaned.reason;
  const address = cleaned.ok ? cleaned.url : url.trim();
  const removed =
    cleaned.removed.length > 0 ? cleaned.removed.map((debris) => t(`endpoints.debris.${debris}`)).join(t('list.separator')) : '';
  const test = useEndpointTest(() => store.api.testEndpoint({ url: address }));
  /** Says its own failures (a toast), so the form drops the promise it returns. */
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem) return;
    setBusy(true);
    try {
      // The engine knows the tokens: it says whether this endpoint is there already (under which name).
      const check = await store.api.checkEndpointUrl({ url: address });
      if (check.sameAs) {
        setSameAs(check.sameAs.name);
        return;
      }
      await store.api.addEndpoint({ name: name.trim() || t('endpoints.defaultName'), url: address });
      await store.refreshSettings();
      setName('');
      setUrl('');
      setTouched(false);
      test.clear();
      toast(t('endpoints.added'));
      props.onDone?.();
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  const error =
    touched && problem
      ? t(`endpoints.urlError.${problem}`)
      : sameAs !== undefined
        ? t('endpoints.urlError.duplicate', { name: sameAs })
        : undefined;
  return (
    <form className="form add-endpoint" onSubmit={(e) => void submit(e)} noValidate>
      <Field label={t('endpoints.url')} error={error} hint={removed ? t('endpoints.cleaned', { what: removed }) : t('endpoints.urlHint')}>
        {(id) => (
          <div className="input-with-button">
            <input
              id={id}
              type={shown ? 'text' : 'password'}
              autoComplete="off"
              spellCheck={false}
              placeholder="wss://…"
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                setSameAs(undefined);
                test.clear();
              }}
              onBlur={() => setTouched(true)}
            />
            <Button small aria-label={shown ? t('endpoints.hideUrl') : t('endpoints.showUrl')} onClick={() => setShown(!shown)}>
              {shown ? t('common.hide') : t('common.show')}
            </Button>
          </div>
        )}
      </Field>
      <Field label={t('endpoints.name')}>
        {(id) => <input id={id} placeholder={t('endpoints.defaultName')} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <div className="form-actions">
        <Button kind="primary" type="submit" disabled={busy}>
          {t('endpoints.add')}
        </Button>
        <TestButton testing={test.testing} disabled={Boolean(problem)} onClick={() => void test.start()} />
      </div>
      {test.result ? <EndpointTestResult result={test.result} notYetAdded /> : null}
      <SecretsNote />
    </form>
  );
}

/** `place`: its place in the list (from 1), said when another endpoint has the same name. */
function EndpointRow({ endpoint, place, nameShared }: { endpoint: EndpointStatus; place: number; nameShared: boolean }) {
  const { store, t } = useApp();
  const [revealed, setRevealed] = useState<string | undefined>();
  const [renaming, setRenaming] = useState(false);
  const run = useCommand();
  const test = useEndpointTest(() => store.api.testEndpoint({ id: endpoint.id }));
  return (
    <li className="list-item">
      <div className="list-main">
        <div className="card-row">
          {renaming ? (
            <RenameForm
              label={t('endpoints.name')}
              name={endpoint.name}
              onSave={(name) => run(() => store.api.updateEndpoint({ id: endpoint.id, name }))}
              onDone={() => setRenaming(false)}
            />
          ) : (
            <strong>{endpoint.name}</strong>
          )}
          <StatusBadge tone={endpointTone[endpoint.state]}>{t(endpointBadge(endpoint))}</StatusBadge>
        </div>
        {endpoint.state !== 'connected' ? (
          <ProblemText problem={endpoint.lastErrorCause} text={endpoint.lastError} tone={takenByOther(endpoint) ? 'warn' : 'bad'} />
        ) : null}
        <EndpointAddress url={endpoint.url} shown={revealed} />
      </div>
      {/* Below the name and the buttons, across the whole card: the serving controls need the room. */}
      <div className="list-wide">
        {test.result ? <EndpointTestResult result={test.result} /> : null}
        <EndpointServing endpoint={endpoint} />
        <label className="card-row small muted">
          {t('toolSets.pick')}
          <ToolSetPicker
            label={t('toolSets.pick')}
            value={endpoint.toolSet ?? 'all'}
            onChange={(toolSet) => void run(() => store.api.updateEndpoint({ id: endpoint.id, toolSet }))}
          />
        </label>
        <div className="small muted">{t('names8.toolSet.line')}</div>
        <PatiencePicker id={endpoint.id} />
      </div>
      <div className="list-actions">
        <Switch
          showLabel
          label={t('endpoints.enabled')}
          checked={endpoint.enabled}
          onChange={(enabled) => void run(() => store.api.updateEndpoint({ id: endpoint.id, enabled }))}
        />
        <TestButton small testing={test.testing} onClick={() => void test.start()} />
        <Button
          small
          onClick={() => (revealed ? setRevealed(undefined) : void store.api.revealEndpointUrl({ id: endpoint.id }).then(setRevealed))}
        >
          {revealed ? t('endpoints.hide') : t('endpoints.reveal')}
        </Button>
        <Button small onClick={() => setRenaming(true)}>
          {t('common.rename')}
        </Button>
        <RemoveButton
          title={t('endpoints.removeTitle', { name: endpoint.name })}
          body={
            nameShared
              ? `${t('endpoints.removeWhich', { name: endpoint.name, place, url: shownMasked(endpoint.url, t), state: t(endpointBadge(endpoint)) })} ${t('endpoints.removeBody')}`
              : t('endpoints.removeBody')
          }
          onConfirm={() => run(() => store.api.removeEndpoint({ id: endpoint.id }))}
        />
      </div>
    </li>
  );
}

export function EndpointsPage() {
  const { store, t } = useApp();
  const endpoints = useStore(store, (d) => d.state.endpoints);
  return (
    <div className="page">
      <h1>{t('nav.endpoints')}</h1>
      <PagePanels />
      {endpoints.length === 0 ? (
        <EmptyState title={t('endpoints.none')}>
          <p className="muted">{t('guide.step1.body')}</p>
          {/* The form is on this page, below: the button takes the user to its address field. */}
          <Button small kind="primary" onClick={() => document.querySelector<HTMLInputElement>('.add-endpoint input')?.focus()}>
            {t('endpoints.pasteBelow')}
          </Button>
        </EmptyState>
      ) : null}
      <ul className="list">
        {endpoints.map((e, i) => (
          <EndpointRow
            key={e.id}
            endpoint={e}
            place={i + 1}
            nameShared={endpoints.some((other) => other.id !== e.id && other.name === e.name)}
          />
        ))}
      </ul>
      <section className="panel">
        <h2>{t('endpoints.addTitle')}</h2>
        <AddEndpointForm />
      </section>
    </div>
  );
}
