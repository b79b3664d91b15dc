import { useState } from 'react';

import { sentences } from '../../shared/i18n/translate';
import type { ConflictAction, ImportPreview } from '../../shared/import';
import { own } from '../../shared/own';
import { type ServerSettings, serverTarget } from '../../shared/settings';
import { valueLabel } from '../../shared/value-label';
import { useApp } from '../app-context';
import { DialogFooter } from '../components/dialog-footer';
import { TransportTag } from '../components/transport-tag';
import { Button, Dialog, Field, Notice } from '../components/ui';
import { shownMasked } from '../masked';

/** The values a server sets that the preview lists: a program's env, a remote server's or a webhook's headers. */
const shownPairs = (s: ServerSettings): Record<string, string> =>
  s.transport === 'stdio' ? s.env : s.transport === 'sse' || s.transport === 'streamable-http' || s.transport === 'n8n' ? s.headers : {};

type Choice = { action: ConflictAction; name: string };

/** From this many servers in a file, the dialog offers one choice for all of them. */
const BULK_FROM = 5;

/** The import preview: what was found, conflicts with a choice each, values to fill in. Nothing changes until Apply. */
export function ImportDialog({ preview, onClose }: { preview: ImportPreview; onClose: () => void }) {
  const { store, t, language, toast } = useApp();
  const [servers, setServers] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(preview.servers.map((s) => [s.server.name, { action: s.action, name: s.suggestedName }])),
  );
  const [endpoints, setEndpoints] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(preview.endpoints.map((e) => [e.name, { action: e.action, name: e.suggestedName }])),
  );
  const [inputs, setInputs] = useState<Record<string, string>>(() =>
    Object.fromEntries(preview.inputs.map((i) => [i.id, i.defaultValue ?? ''])),
  );
  // ${env:…} values the user chose to take from this computer's environment: never without asking.
  const [fromEnvironment, setFromEnvironment] = useState<Set<string>>(() => new Set());
  const [error, setError] = useState<string | undefined>();
  // Values the user left empty on Apply: each field says so, and the first one is shown (it may be below the fold).
  const [missing, setMissing] = useState<Set<string>>(() => new Set());
  const [busy, setBusy] = useState(false);
  const needed = new Set(preview.servers.filter((s) => own(servers, s.server.name)?.action !== 'skip').flatMap((s) => s.needs));
  const count =
    Object.values(servers).filter((c) => c.action !== 'skip').length + Object.values(endpoints).filter((c) => c.action !== 'skip').length;

  const apply = async () => {
    const empty = preview.inputs.filter((i) => needed.has(i.id) && !fromEnvironment.has(i.id) && !(own(inputs, i.id) ?? '').trim());
    setMissing(new Set(empty.map((i) => i.id)));
    if (empty[0]) {
      const first = empty[0].id;
      const field = [...document.querySelectorAll<HTMLElement>('[data-input]')].find((f) => f.dataset.input === first);
      field?.scrollIntoView?.({ block: 'center' });
      field?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const result = await store.api.applyImport({
        id: preview.id,
        servers,
        endpoints,
        inputs: Object.fromEntries(Object.entries(inputs).filter(([id]) => needed.has(id) && !fromEnvironment.has(id))),
        fromEnvironment: [...fromEnvironment].filter((id) => needed.has(id)),
      });
      await store.refreshSettings();
      // Counts, then the names: what was added (or replaced) and what was skipped.
      const added = [...result.addedServers, ...result.replacedServers, ...result.addedEndpoints];
      const names = (list: string[]) => list.join(language === 'zh-CN' ? '、' : ', ');
      toast(
        sentences(
          language,
          t('import.done', {
            servers: result.addedServers.length + result.replacedServers.length,
            endpoints: result.addedEndpoints.length,
          }),
          added.length > 0 ? t('import.doneAdded', { names: names(added) }) : undefined,
          result.skippedNames.length > 0 ? t('import.doneSkipped', { names: names(result.skippedNames) }) : undefined,
        ),
      );
      onClose();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  // Many servers (a big file brings thousands): one choice for all of them, or for all that are already here.
  const conflicting = preview.servers.filter((s) => s.conflict);
  const setAll = (which: typeof preview.servers, action: 'skip' | 'default') =>
    setServers({
      ...servers,
      ...Object.fromEntries(
        which.map((s) => [s.server.name, { ...(own(servers, s.server.name) as Choice), action: action === 'skip' ? 'skip' : s.action }]),
      ),
    });

  const Pairs = ({ label, pairs }: { label: string; pairs: Record<string, string> }) =>
    Object.keys(pairs).length === 0 ? null : (
      <dl className="pairs small" aria-label={label}>
        {Object.entries(pairs).map(([name, value]) => (
          <div key={name} className="pair">
            <dt className="mono">{name}</dt>
            <dd className="mono muted">{shownMasked(value, t)}</dd>
          </div>
        ))}
      </dl>
    );
  const actionSelect = (label: string, choice: Choice, conflict: boolean, set: (c: Choice) => void) => (
    <div className="import-choice">
      <select aria-label={label} value={choice.action} onChange={(e) => set({ ...choice, action: e.target.value as ConflictAction })}>
        <option value={conflict ? 'rename' : 'add'}>{conflict ? t('import.action.rename') : t('import.action.add')}</option>
        <option value="skip">{t('import.action.skip')}</option>
        {conflict ? <option value="replace">{t('import.action.replace')}</option> : null}
      </select>
      {choice.action === 'rename' ? (
        <input
          aria-label={t('import.newName', { name: label })}
          value={choice.name}
          onChange={(e) => set({ ...choice, name: e.target.value })}
        />
      ) : null}
    </div>
  );

  return (
    <Dialog
      wide
      title={t('import.title', { source: preview.source })}
      onClose={onClose}
      onSubmit={() => count > 0 && !busy && void apply()}
      footer={
        <DialogFooter
          onCancel={onClose}
          start={<span className="small muted">{t('import.summary', { count })}</span>}
          primary={{ label: t('import.apply'), disabled: busy || count === 0 }}
        />
      }
    >
      <p className="muted small">{t('import.detected', { format: t(`format.${preview.format}`) })}</p>
      {preview.servers.some((x) => Object.keys(shownPairs(x.server)).length > 0) ? (
        <p className="muted small">{t('import.masked')}</p>
      ) : null}
      {preview.servers.length > 0 ? (
        <section>
          <h3>{t('import.servers')}</h3>
          {preview.servers.length >= BULK_FROM ? (
            <div className="import-bulk" role="group" aria-label={t('import.bulk')}>
              <span className="small muted">{t('import.bulk')}</span>
              {conflicting.length > 0 ? (
                <Button small onClick={() => setAll(conflicting, 'skip')}>
                  {t('import.skipConflicts', { count: conflicting.length })}
                </Button>
              ) : null}
              <Button small onClick={() => setAll(preview.servers, 'skip')}>
                {t('import.skipAll', { count: preview.servers.length })}
              </Button>
              <Button small kind="ghost" onClick={() => setAll(preview.servers, 'default')}>
                {t('import.bulkReset')}
              </Button>
            </div>
          ) : null}
          <ul className="import-list">
            {preview.servers.map((item) => {
              const s = item.server;
              const choice = own(servers, s.name) as Choice;
              return (
                <li key={s.name} className={choice.action === 'skip' ? 'is-skipped' : undefined}>
                  <div className="import-main">
                    <div className="card-row">
                      <strong>{s.name}</strong>
                      <TransportTag transport={s.transport} />
                      {!s.enabled ? <span className="tag">{t('import.disabled')}</span> : null}
                    </div>
                    <div className="mono small muted break">{shownMasked(serverTarget(s), t)}</div>
                    <Pairs label={s.transport === 'stdio' ? t('import.env') : t('import.headers')} pairs={shownPairs(s)} />
                    {s.transport === 'stdio' && s.cwd !== undefined ? (
                      <div className="mono small muted break">{t('import.cwd', { dir: s.cwd })}</div>
                    ) : null}
                    {item.codeEnv.length > 0 ? (
                      <div className="small warn-text" role="note">
                        {t('import.codeEnv', { names: item.codeEnv.join(t('list.separator')), count: item.codeEnv.length })}
                      </div>
                    ) : null}
                    {item.conflict ? (
                      <div className="small warn-text">
                        {t(`import.conflict.${item.conflict.kind}`, { existing: item.conflict.existing })}
                      </div>
                    ) : null}
                  </div>
                  {actionSelect(s.name, choice, Boolean(item.conflict), (c) => setServers({ ...servers, [s.name]: c }))}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      {preview.endpoints.length > 0 ? (
        <section>
          <h3>{t('import.endpoints')}</h3>
          <ul className="import-list">
            {preview.endpoints.map((e) => (
              <li key={e.name}>
                <div className="import-main">
                  <strong>{e.name}</strong>
                  <div className="mono small muted break">{shownMasked(e.url, t)}</div>
                  {e.conflict ? (
                    <div className="small warn-text">{t(`import.conflict.${e.conflict.kind}`, { existing: e.conflict.existing })}</div>
                  ) : null}
                </div>
                {actionSelect(e.name, own(endpoints, e.name) as Choice, Boolean(e.conflict), (c) =>
                  setEndpoints({ ...endpoints, [e.name]: c }),
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview.inputs.some((i) => needed.has(i.id)) ? (
        <section className="form">
          <h3>{t('import.inputs')}</h3>
          {preview.inputs
            .filter((i) => needed.has(i.id))
            .map((input) => (
              <Field
                key={input.id}
                label={
                  input.id.startsWith('env:')
                    ? t('import.envVariable', { name: input.id.slice(4) })
                    : input.id === 'workspaceFolder'
                      ? t('import.workspaceFolder')
                      : input.id === `input:${input.description}`
                        ? // The file did not describe it: its id in words (the placeholder itself is in the hint).
                          valueLabel(input.description)[language === 'zh-CN' ? 'zh' : 'en']
                        : input.description
                }
                error={missing.has(input.id) ? t('import.valueNeeded') : undefined}
                hint={[
                  input.placeholder,
                  input.where.length > 0 ? t('import.usedIn', { where: input.where.join(t('list.separator')) }) : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              >
                {(id) => (
                  <>
                    <input
                      id={id}
                      data-input={input.id}
                      aria-invalid={missing.has(input.id) || undefined}
                      type={input.password ? 'password' : 'text'}
                      autoComplete="off"
                      disabled={fromEnvironment.has(input.id)}
                      value={fromEnvironment.has(input.id) ? '' : (own(inputs, input.id) ?? '')}
                      onChange={(e) => {
                        setInputs({ ...inputs, [input.id]: e.target.value });
                        if (missing.has(input.id)) setMissing(new Set([...missing].filter((m) => m !== input.id)));
                      }}
                    />
                    {input.fromEnvironment !== undefined ? (
                      <label className="check small">
                        <input
                          type="checkbox"
                          checked={fromEnvironment.has(input.id)}
                          onChange={(e) => {
                            const next = new Set(fromEnvironment);
                            if (e.target.checked) next.add(input.id);
                            else next.delete(input.id);
                            setFromEnvironment(next);
                          }}
                        />{' '}
                        {t('import.fromEnvironment', { name: input.id.slice(4), masked: input.fromEnvironment })}
                      </label>
                    ) : null}
                    {input.ownSecret ? <div className="small warn-text">{t('import.ownSecret', { name: input.id.slice(4) })}</div> : null}
                  </>
                )}
              </Field>
            ))}
        </section>
      ) : null}
      {Object.keys(preview.tools).length > 0 ? (
        <p className="small muted">
          {t('import.tools', { count: Object.values(preview.tools).reduce((n, x) => n + Object.keys(x).length, 0) })}
        </p>
      ) : null}
      {preview.warnings.length > 0 ? (
        <details className="import-warnings">
          <summary>{t('import.warnings', { count: preview.warnings.length })}</summary>
          <ul className="small">
            {preview.warnings.map((w, i) => (
              <li key={i}>
                <span className="mono">{w.path}</span>: {w.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
    </Dialog>
  );
}
