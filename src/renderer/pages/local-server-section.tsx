import { useState } from 'react';

import type { MessageKey } from '../../shared/i18n/translate';
import type { Settings } from '../../shared/settings';
import type { LocalServerStatus } from '../../shared/status';
import { type AddToClient, AddToClientSchema, LOCAL_CLIENT_NAMES } from '../../shared/tool-set-api';
import { useApp } from '../app-context';
import { ConfirmRemoveDialog } from '../components/confirm-dialog';
import { ProblemText } from '../components/problem-text';
import { clientToolSet, localClientIds, ToolSetPicker } from '../components/tool-set-picker';
import { Button, Field, Notice, StatusBadge, Switch, Term, type Tone } from '../components/ui';
import { useCommand } from '../components/use-command';
import { shownMasked } from '../masked';
import { useStore } from '../store/bridge-store';
import { AddToClientDialog, useCopy } from './add-to-client-dialog';

import '../tool-sets.css';

const stateTone: Record<LocalServerStatus['state'], Tone> = { off: 'off', starting: 'busy', listening: 'ok', failed: 'bad' };

/** The options of `run` that set the local server for one run (src/cli/local-server-flags.ts; the token also from its environment variable). */
const OVERRIDE_OPTIONS = { enabled: '--mcp-port', port: '--mcp-port', host: '--mcp-port', token: '--mcp-token-file' } as const;

/** The token: masked until asked for; copyable; replaceable (after a warning). */
function TokenRow({ masked }: { masked: string }) {
  const { store, t, toast } = useApp();
  const run = useCommand();
  const copy = useCopy();
  const [shown, setShown] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const reveal = () => store.api.revealLocalServerToken();
  return (
    <Field label={t('localServer.token')} hint={t('localServer.tokenHint')}>
      {(id) => (
        <div className="copy-row">
          <input id={id} className="mono" readOnly value={shown ?? masked} />
          <Button
            small
            onClick={() => (shown ? setShown(undefined) : void reveal().then(setShown, (e: Error) => toast(e.message, 'error')))}
          >
            {shown ? t('localServer.hide') : t('localServer.show')}
          </Button>
          <Button small onClick={() => void reveal().then(copy, (e: Error) => toast(e.message, 'error'))}>
            {t('localServer.copy')}
          </Button>
          <Button small kind="danger" onClick={() => setConfirming(true)}>
            {t('localServer.regenerate')}
          </Button>
          {confirming ? (
            <ConfirmRemoveDialog
              title={t('localServer.regenerateTitle')}
              body={t('localServer.regenerateBody')}
              confirmLabel={t('localServer.regenerate')}
              onCancel={() => setConfirming(false)}
              onConfirm={() =>
                void run(() => store.api.regenerateLocalServerToken()).then(() => {
                  setConfirming(false);
                  setShown(undefined);
                })
              }
            />
          ) : null}
        </div>
      )}
    </Field>
  );
}

/** One app: its address, its set, how many sessions it has, its own token, and "Add to …". */
function ClientRow({
  client,
  settings,
  status,
  added,
  onAdd,
}: {
  client: string;
  settings: Settings;
  status: LocalServerStatus | undefined;
  /** "Add to …" wrote this app's entry while the window was open. */
  added: boolean;
  onAdd: (client: AddToClient) => void;
}) {
  const { store, t, toast } = useApp();
  const run = useCommand();
  const copy = useCopy();
  const known = AddToClientSchema.safeParse(client);
  const name = known.success ? LOCAL_CLIENT_NAMES[known.data] : client === '' ? t('localServer.otherClients') : client;
  const base = status?.url;
  const address = client === 'claude-desktop' ? t('localServer.viaConnect') : base ? `${base}${client ? `/${client}` : ''}` : '';
  const sessions = status?.sessions.filter((s) => s.client === client).length ?? 0;
  const setToolSet = (toolSet: string) =>
    void run(() => store.api.updateLocalServer(client === '' ? { toolSet } : { clients: { [client]: toolSet } }));
  return (
    <tr>
      <td>
        <strong>{name}</strong>
        <div className="mono small muted break">{address}</div>
      </td>
      <td>
        <ToolSetPicker
          label={`${t('toolSets.pick')}: ${name}`}
          value={client === '' ? settings.localServer.toolSet : clientToolSet(settings, client)}
          onChange={setToolSet}
        />
      </td>
      <td className="small">
        {sessions > 0 ? (
          <StatusBadge tone="ok">{t('localServer.sessions', { count: sessions })}</StatusBadge>
        ) : added ? (
          <StatusBadge tone="ok">{t('localServer.added')}</StatusBadge>
        ) : null}
      </td>
      <td className="align-end">
        <div className="list-actions">
          {/* Each app's own token opens its own address only; Claude Desktop's connect finds it by itself. */}
          {client !== '' && client !== 'claude-desktop' && settings.localServer.token ? (
            <Button
              small
              onClick={() => void store.api.revealLocalServerToken({ client }).then(copy, (e: Error) => toast(e.message, 'error'))}
            >
              {t('localServer.copyToken')}
            </Button>
          ) : null}
          {known.success ? (
            <Button small onClick={() => onAdd(known.data)}>
              {t('localServer.addTo', { client: name })}
            </Button>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

/** Settings → Local MCP server: on/off, port, token, and each app with its own tool set. */
export function LocalServerSection() {
  const { store, t } = useApp();
  const run = useCommand();
  const copy = useCopy();
  const settings = useStore(store, (d) => d.settings);
  const status = useStore(store, (d) => d.state.localServer);
  const [portText, setPortText] = useState<string | undefined>();
  const [adding, setAdding] = useState<AddToClient | undefined>();
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  if (!settings) return null;
  const local = settings.localServer;
  const portValue = portText ?? String(local.port);
  const port = Number(portValue);
  // Only what the user types is checked: a config may say 0 (any free port).
  const portError =
    portText !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535) ? t('localServer.portError') : undefined;
  const state = status?.state ?? 'off';
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(local.host);
  const clients = [
    ...localClientIds(settings),
    ...new Set(
      (status?.sessions ?? [])
        .map((s) => s.client)
        .filter((c) => c !== '' && !Object.hasOwn(LOCAL_CLIENT_NAMES, c) && !Object.hasOwn(local.clients, c)),
    ),
  ];

  return (
    <section className="panel form local-server" aria-labelledby="local-server-title">
      <div className="card-row">
        <h2 id="local-server-title">{t('localServer.title')}</h2>
        <StatusBadge tone={stateTone[state]}>{t(`localServer.state.${state}` as MessageKey)}</StatusBadge>
      </div>
      <p className="small muted settings-purpose">
        {t('localServer.intro')}
        <Term>{t('localServer.protocolTerm')}</Term>
      </p>
      <Switch
        showLabel
        label={t('localServer.enabled')}
        checked={local.enabled}
        onChange={(enabled) => void run(() => store.api.updateLocalServer({ enabled }))}
      />
      {status?.lastError ? (
        <Notice kind="error">
          <ProblemText problem={status.lastErrorCause} text={status.lastError} />
        </Notice>
      ) : null}
      {status?.overridden ? (
        // Started with --mcp-port (or another of its options): what runs is not what is saved, and the page says so.
        <Notice kind="info">
          {t(status.url ? 'plain.localServer.overriddenAt' : 'plain.localServer.overridden', {
            options: [...new Set(status.overridden.map((key) => OVERRIDE_OPTIONS[key]))].join(t('list.separator')),
            url: status.url ?? '',
          })}
        </Notice>
      ) : null}
      {!loopback ? <Notice kind="warn">{t('localServer.exposed', { host: local.host })}</Notice> : null}
      <div className="form-row">
        <Field label={t('localServer.port')} error={portError} hint={t('localServer.portHint')}>
          {(id) => (
            <div className="copy-row">
              <input id={id} type="number" min="1" max="65535" value={portValue} onChange={(e) => setPortText(e.target.value)} />
              <Button
                small
                kind="primary"
                disabled={Boolean(portError) || portText === undefined}
                onClick={() => void run(() => store.api.updateLocalServer({ port })).then((ok) => ok && setPortText(undefined))}
              >
                {t('common.save')}
              </Button>
            </div>
          )}
        </Field>
        <Field label={t('localServer.url')}>
          {(id) => (
            <div className="copy-row">
              <input id={id} className="mono" readOnly value={status?.url ?? '—'} />
              <Button small disabled={!status?.url} onClick={() => copy(status?.url ?? '')}>
                {t('localServer.copy')}
              </Button>
            </div>
          )}
        </Field>
      </div>
      {local.token ? <TokenRow masked={shownMasked(local.token, t)} /> : null}
      <div>
        <h3>{t('localServer.clients')}</h3>
        <p className="small muted">{t('localServer.clientsHint')}</p>
        <table className="table clients-table">
          <thead>
            <tr>
              <th>{t('localServer.client')}</th>
              <th>{t('toolSets.pick')}</th>
              <th />
              <th />
            </tr>
          </thead>
          <tbody>
            {[...clients, ''].map((client) => (
              <ClientRow
                key={client || '(other)'}
                client={client}
                settings={settings}
                status={status}
                added={added.has(client)}
                onAdd={setAdding}
              />
            ))}
          </tbody>
        </table>
      </div>
      {adding ? (
        <AddToClientDialog
          client={adding}
          toolSet={clientToolSet(settings, adding)}
          onAdded={() => setAdded((before) => new Set(before).add(adding))}
          onClose={() => setAdding(undefined)}
        />
      ) : null}
    </section>
  );
}
