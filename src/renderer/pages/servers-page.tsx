import { useEffect, useState } from 'react';

import type { Problem } from '../../shared/problem';
import { RUNTIME_LABEL } from '../../shared/runtime-need';
import { serverStateWord } from '../../shared/server-state-word';
import { SERVICE_KINDS, type ServiceKind } from '../../shared/service-settings';
import { isMcpServer, type ServerSettings } from '../../shared/settings';
import { stepAwaited } from '../../shared/sign-in-status';
import type { ServerStatus } from '../../shared/status';
import { useApp } from '../app-context';
import { RemoveButton } from '../components/confirm-dialog';
import { Menu } from '../components/menu';
import { PagePanels } from '../components/page-panels';
import { ProblemText } from '../components/problem-text';
import { RuntimeDownload, runtimeWaitedFor, useRuntimeDownload } from '../components/runtime-download';
import { RuntimeLine } from '../components/runtime-line';
import { NextTry, ServerFailure } from '../components/server-failure';
import { SkippedTools } from '../components/skipped-tools';
import { TransportTag } from '../components/transport-tag';
import { Button, EmptyState, StatusBadge, Switch } from '../components/ui';
import { useCommand } from '../components/use-command';
import { useStore } from '../store/bridge-store';
import { ServerEdit } from './catalogue/catalogue-edit';
import { ServerAbout, useFromCatalogue } from './catalogue/server-about';
import { ValueCheckLine } from './catalogue/value-check-line';
import { CatalogueDialog } from './catalogue-dialog';
import { ImportMenu } from './import-menu';
import { ServerEditor } from './server-editor';
import { ServiceEditor } from './service-editor';

/** Failures whose usual hint says the server is restarted (true while it is retried, not once it failed). */
const RETRIED = new Set([
  'server.exited',
  'server.killed',
  'server.closed',
  'server.crashed',
  'server.outputOverflow',
  'server.pingFailed',
]);

/** Failures of the program itself (it exited or crashed), not of the way to it. */
const EXITED = new Set(['server.exited', 'server.exitedEarly', 'server.crashed', 'server.closed']);

/** Failures whose advice is another download source: the card links to that setting. */
const TO_MIRRORS = new Set(['server.registryUnreachable', 'server.runtimeDownloadFailed', 'server.runtimeMismatch']);

/** Failures whose words say little (an exit code, a closed pipe): the server's own output is the clue, shown open. */
const OUTPUT_IS_THE_CLUE = new Set(['server.exited', 'server.exitedEarly', 'server.killed', 'server.closed']);

/** Which attempt of a server the card shows: each change of state, failure or retry time is another. */
const attemptOf = (status: ServerStatus) => JSON.stringify([status.state, status.since, status.restarts, status.retryAt ?? null]);

/** The card's element id: the overview links failed servers to it (#/servers?server=NAME). */
export const serverCardId = (name: string) => `server-${encodeURIComponent(name)}`;

function ServerRow({ status, settings, names }: { status: ServerStatus; settings: ServerSettings | undefined; names: string[] }) {
  const { store, t, language } = useApp();
  // A program that left no output: the hints that point at "the output below" would point at nothing.
  const silent = status.stderrTail.length === 0;
  const showOutput =
    status.stderrTail.length > 0 && (status.state === 'failed' || status.state === 'restarting' || status.state === 'starting');
  const [editing, setEditing] = useState(false);
  const run = useCommand();
  const from = useFromCatalogue(settings);
  const active = status.state === 'running' || status.state === 'starting' || status.state === 'restarting';
  // A failed server that waits for the user's step (a sign-in, a runtime's download): amber, and its card offers that step.
  const awaited = stepAwaited(status);
  const word = serverStateWord(status);
  const signInWaits = awaited === 'signIn';
  // The runtime it waits for, which this window can have downloaded; kept once asked for, to say how it went.
  const canDownload = useRuntimeDownload();
  const waitedFor = canDownload && settings?.enabled ? runtimeWaitedFor(status) : undefined;
  const [downloading, setDownloading] = useState(waitedFor);
  const download = waitedFor ?? downloading;
  // The web UI opens the page itself (the desktop app opens the system browser); the link stays for a blocked pop-up.
  const [signInUrl, setSignInUrl] = useState<string | undefined>();
  // Why the last Sign in could not start, said here in the reader's language (not as an English toast).
  const [signInProblem, setSignInProblem] = useState<Problem | undefined>();
  const signIn = () =>
    run(async () => {
      const answer = await store.api.signIn({ name: status.name });
      setSignInProblem('problem' in answer ? answer.problem : undefined);
      if ('problem' in answer || answer.opened) return setSignInUrl(undefined);
      setSignInUrl(answer.url);
      window.open(answer.url, '_blank', 'noopener,noreferrer');
    });
  return (
    <li className="list-item" id={serverCardId(status.name)} tabIndex={-1}>
      <div className="list-main">
        <div className="card-row">
          {/* A catalogue server by the title it was added under; its name (its tools' prefix) is in its details. */}
          <strong>{from ? (language === 'zh-CN' ? from.entry.title.zh : from.entry.title.en) : status.name}</strong>
          {!status.enabled ? <span className="tag">{t('servers.disabled')}</span> : null}
          {/* Switched off and stopped: 已关闭 says it; 已停止 beside it would say it twice. */}
          {status.enabled || status.state !== 'stopped' ? <StatusBadge tone={word.tone}>{t(word.key, word.params)}</StatusBadge> : null}
          <TransportTag transport={status.transport} />
          {status.state === 'running' ? <span className="small muted">{t('servers.toolCount', { count: status.toolCount })}</span> : null}
          {/* Once it runs, its retries are history: the count beside 运行中 read as a trouble still going on. */}
          {status.restarts > 0 && status.state !== 'running' ? (
            <span className="small muted">{t('servers.restarts', { count: status.restarts })}</span>
          ) : null}
        </div>
      </div>
      <div className="list-wide">
        <ServerAbout settings={settings} from={from} />
        <RuntimeLine runtime={status.runtime} />
        {status.state === 'restarting' && status.retryAt !== undefined ? <NextTry at={status.retryAt} /> : null}
        {status.installing ? (
          <>
            {/* A retry that installs again is not a first run (the badge says 正在重试：安装中). */}
            <div className="small">{t(status.state === 'restarting' ? 'servers.installingAgain' : 'servers.installing')}</div>
            {/* The runner and the package, for whoever wants them: folded after the plain words. */}
            <details className="small muted technical-detail">
              <summary>{t('runtime.technicalDetail')}</summary>
              {t('servers.installingWhat', { runner: status.installing.runner, package: status.installing.package ?? status.name })}
            </details>
          </>
        ) : null}
        {status.state !== 'running' && status.state !== 'stopped' ? (
          <ServerFailure
            status={status}
            tone={awaited ? 'warn' : 'bad'}
            // A failed server is no longer restarted: the usual hint ("it is restarted automatically") would be wrong.
            {...(status.state === 'failed' && RETRIED.has(status.lastErrorCause?.code ?? '')
              ? { hint: t(silent ? 'servers.failedHintSilent' : 'servers.failedHint') }
              : silent && OUTPUT_IS_THE_CLUE.has(status.lastErrorCause?.code ?? '')
                ? { hint: t('servers.exitedSilentHint') }
                : {})}
            {...(waitedFor && status.lastErrorCause?.code === 'server.runtimeMissing'
              ? { hint: t('add.runtimeMissingHint', { runtime: RUNTIME_LABEL[waitedFor] }) }
              : {})}
          >
            {/* A program that stopped or crashed: with a catalogue server, the folder or file it was given is the usual cause. */}
            {settings && isMcpServer(settings) && status.lastErrorCause && EXITED.has(status.lastErrorCause.code) ? (
              <ValueCheckLine server={settings} attempt={attemptOf(status)} />
            ) : null}
          </ServerFailure>
        ) : null}
        {download ? <RuntimeDownload runtime={download} onStart={() => setDownloading(download)} /> : null}
        {status.state !== 'running' && TO_MIRRORS.has(status.lastErrorCause?.code ?? '') ? (
          <a className="btn btn-default btn-small" href="#/settings?section=mirrors">
            {t('servers.toMirrors')}
          </a>
        ) : null}
        {signInWaits && signInProblem ? <ProblemText problem={signInProblem} /> : null}
        {signInWaits && signInUrl ? (
          <div className="small">
            {t('servers.signInOpened')}{' '}
            <a href={signInUrl} target="_blank" rel="noopener noreferrer">
              {t('servers.openSignIn')}
            </a>
          </div>
        ) : null}
        <SkippedTools status={status} />
        {showOutput ? (
          // Open while its output is the only clue; a click away once the failure's own words say what happened.
          <details className="stderr" open={status.state !== 'starting' && OUTPUT_IS_THE_CLUE.has(status.lastErrorCause?.code ?? '')}>
            <summary>{t('servers.stderrLines', { count: status.stderrTail.length })}</summary>
            <pre className="mono small">{status.stderrTail.join('\n')}</pre>
          </details>
        ) : null}
      </div>
      <div className="list-actions">
        {settings ? (
          <Switch
            label={t('servers.enable', { name: status.name })}
            checked={settings.enabled}
            onChange={(enabled) => void run(() => store.api.updateServer({ name: status.name, server: { ...settings, enabled } }))}
          />
        ) : null}
        <a className="btn btn-default btn-small" href={`#/logs?source=${encodeURIComponent(`server:${status.name}`)}`}>
          {t('servers.logs')}
        </a>
        {/* One control per action: the switch starts and stops it; the button restarts a running server or retries a failed or waiting one. */}
        {settings?.enabled && status.state === 'running' ? (
          <Button small onClick={() => void run(() => store.api.restartServer({ name: status.name }))}>
            {t('servers.restart')}
          </Button>
        ) : settings?.enabled && status.state === 'restarting' ? (
          // Waiting for its next try: try now (a restart from stopped, its failures forgotten).
          <Button small kind="primary" onClick={() => void run(() => store.api.restartServer({ name: status.name }))}>
            {t('add.retryNow')}
          </Button>
        ) : settings?.enabled && signInWaits ? (
          <Button small kind="primary" title={t('servers.signInTitle', { name: status.name })} onClick={() => void signIn()}>
            {t('servers.signIn')}
          </Button>
        ) : settings?.enabled && !active && !waitedFor ? (
          // Download uv, when offered, is the one step to take: Try again would only fail the same way.
          <Button
            small
            kind={status.state === 'failed' && !download ? 'primary' : 'default'}
            onClick={() => void run(() => store.api.startServer({ name: status.name }))}
          >
            {t(status.state === 'failed' ? 'servers.retry' : 'common.start')}
          </Button>
        ) : null}
        <Button small onClick={() => setEditing(true)} disabled={!settings}>
          {t('common.edit')}
        </Button>
        <RemoveButton
          title={t('servers.removeTitle', { name: status.name })}
          body={t('servers.removeBody')}
          onConfirm={() => run(() => store.api.removeServer({ name: status.name }))}
        />
      </div>
      {editing && settings && isMcpServer(settings) ? (
        <ServerEdit server={settings} existingNames={names} onClose={() => setEditing(false)} />
      ) : null}
      {editing && settings && !isMcpServer(settings) ? (
        <ServiceEditor kind={settings.transport} service={settings} existingNames={names} onClose={() => setEditing(false)} />
      ) : null}
    </li>
  );
}

function ExportMenu() {
  const { store, t, toast } = useApp();
  const download = async (format: 'mcp-servers' | 'xiaozhi-client') => {
    try {
      const file = await store.api.exportConfig({ format });
      const url = URL.createObjectURL(new Blob([file.text], { type: 'application/json;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.fileName;
      a.click();
      URL.revokeObjectURL(url);
      toast(t('export.done', { file: file.fileName }));
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  };
  return (
    <Menu
      label={t('export.menu')}
      items={[
        { label: t('export.mcpServers'), onSelect: () => void download('mcp-servers') },
        { label: t('export.xiaozhi'), onSelect: () => void download('xiaozhi-client') },
      ]}
      footer={t('export.secrets')}
    />
  );
}

export function ServersPage() {
  const { store, t, showImport } = useApp();
  const servers = useStore(store, (d) => d.state.servers);
  const settings = useStore(store, (d) => d.settings?.servers ?? []);
  // The overview's "Open the catalogue" comes here with ?add=catalogue.
  const [adding, setAdding] = useState<
    { step: 'catalogue' } | { step: 'form'; initial?: ServerSettings; fromCatalogue: boolean } | undefined
  >(() => (/[?&]add=catalogue\b/.test(window.location.hash) ? { step: 'catalogue' } : undefined));
  const [addingService, setAddingService] = useState<ServiceKind | undefined>();
  const names = settings.map((s) => s.name);
  const linked = new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('server');
  // A server just added from the catalogue: its card is shown (starting) once the status has it.
  const [added, setAdded] = useState<string | undefined>();
  const shownCard = added ?? linked;
  const cardHere = servers.some((s) => s.name === shownCard);
  useEffect(() => {
    if (!shownCard || !cardHere) return;
    const card = document.getElementById(serverCardId(shownCard));
    card?.scrollIntoView?.({ block: 'start' });
    card?.focus({ preventScroll: true });
  }, [shownCard, cardHere]);
  return (
    <div className="page">
      <div className="page-header">
        <h1>{t('nav.servers')}</h1>
        <div className="toolbar">
          <ImportMenu onPreview={showImport} />
          <ExportMenu />
          <Menu
            label={`+ ${t('services.add')}`}
            items={SERVICE_KINDS.map((kind) => ({
              label: t(`servers.transport.${kind}`),
              hint: t(`words9.service.about.${kind}`),
              onSelect: () => setAddingService(kind),
            }))}
          />
          <Button kind="primary" onClick={() => setAdding({ step: 'catalogue' })}>
            + {t('servers.add')}
          </Button>
        </div>
      </div>
      <PagePanels />
      {servers.length === 0 ? (
        <EmptyState title={t('servers.none')}>
          <p className="muted">{t('servers.noneHint')}</p>
          <Button small kind="primary" onClick={() => setAdding({ step: 'catalogue' })}>
            {t('checklist.openCatalogue')}
          </Button>
        </EmptyState>
      ) : null}
      <ul className="list">
        {servers.map((s) => (
          <ServerRow key={s.name} status={s} settings={settings.find((x) => x.name === s.name)} names={names} />
        ))}
      </ul>
      {adding?.step === 'catalogue' ? (
        <CatalogueDialog
          onClose={() => setAdding(undefined)}
          onPick={(initial) => setAdding({ step: 'form', initial, fromCatalogue: true })}
          onCustom={() => setAdding({ step: 'form', fromCatalogue: false })}
          onAdded={(name) => {
            setAdding(undefined);
            setAdded(name);
          }}
        />
      ) : null}
      {addingService ? (
        <ServiceEditor key={addingService} kind={addingService} existingNames={names} onClose={() => setAddingService(undefined)} />
      ) : null}
      {adding?.step === 'form' ? (
        <ServerEditor
          key={adding.initial?.name ?? 'custom'}
          {...(adding.initial ? { initial: adding.initial } : {})}
          existingNames={names}
          onClose={() => setAdding(undefined)}
          onBack={() => setAdding({ step: 'catalogue' })}
        />
      ) : null}
    </div>
  );
}
