import { useEffect, useRef, useState } from 'react';

import type { CatalogueEntry, CatalogueValue } from '../../../shared/catalogue';
import { own } from '../../../shared/own';
import type { PathCheck, PathValueKind } from '../../../shared/path-values';
import { RUNTIME_LABEL, type RuntimeName } from '../../../shared/runtime-need';
import { sameProgram } from '../../../shared/same-program';
import type { ServerSettings } from '../../../shared/settings';
import { useApp } from '../../app-context';
import { DialogFooter } from '../../components/dialog-footer';
import { ProblemText } from '../../components/problem-text';
import { RuntimeFetching, RuntimeSource, useRuntimeFetch } from '../../components/runtime-download';
import { useServerTitle } from '../../components/server-title';
import { Button, Dialog, Field, Notice } from '../../components/ui';
import { useStore } from '../../store/bridge-store';
import { isPathValue, usePathChecks } from './use-path-checks';

import '../../add.css';

/** What is wrong with a folder or file value, in the window's words (the full path it was taken as). */
function pathProblemText(check: PathCheck, value: CatalogueValue, t: ReturnType<typeof useApp>['t']): string {
  const path = check.path;
  if (check.problem === 'notFolder') return t('values.notFolder', { path });
  if (check.problem === 'notFile') return t('values.notFile', { path });
  if (check.problem === 'noParent') return t('values.noParent', { path });
  return t(value.kind === 'folder' ? 'values.folderMissing' : 'values.pathMissing', { path });
}

/**
 * Adding one catalogue entry, in one step: the values it needs (keys, folders, addresses), or for an
 * entry that needs none a short confirmation of what it is and what it needs; Add saves and starts it.
 * Editing a server added from the catalogue is the same step, its values filled in; Save saves and
 * restarts it. Folders and files are checked first, and a relative name is shown as the full path it
 * stands for. The developer form (command, arguments, JSON) is one click away, filled in.
 */
export function ValuesStep(props: {
  entry: CatalogueEntry;
  /** Editing this server (by its name), from these values, rather than adding one. */
  editing?: { name: string; values: Record<string, string> };
  /** The server these values make (under a name no other server holds). */
  build: (values: Record<string, string>) => ServerSettings;
  /** The servers held now: a copy of one is flagged before it is added. */
  held: ServerSettings[];
  /**
   * What its runtime means here, when it is not simply there (to fetch, or missing); `download`: the
   * window can download it, and the one button downloads it and then adds (a server added without it
   * could not start).
   */
  runtime?: { text: string; missing: boolean; need: RuntimeName; download: boolean };
  busy: boolean;
  onBack?: () => void;
  onClose: () => void;
  onAdd: (server: ServerSettings) => void;
  onAdvanced: (server: ServerSettings) => void;
}) {
  const { t, language, store, toast } = useApp();
  const { entry } = props;
  const text = (x: { en: string; zh: string }) => (language === 'zh-CN' ? x.zh : x.en);
  const [values, setValues] = useState<Record<string, string>>(
    () => props.editing?.values ?? Object.fromEntries(entry.values.map((v) => [v.id, v.default ?? ''])),
  );
  const [submitted, setSubmitted] = useState(false);
  const [pathProblems, setPathProblems] = useState<Map<string, PathCheck>>(() => new Map());
  const [checking, setChecking] = useState(false);
  const fetchFirst = props.runtime?.missing && props.runtime.download ? props.runtime.need : undefined;
  const runtimeFetch = useRuntimeFetch(fetchFirst);
  // Closed while its runtime downloads: the person left without adding (the runtime still comes).
  const closed = useRef(false);
  useEffect(() => {
    closed.current = false;
    return () => {
      closed.current = true;
    };
  }, []);
  const fetching = runtimeFetch.shown?.state === 'fetching';
  const paths = usePathChecks(entry, values);
  // The desktop app opens the system's picker; the headless web page has none (the path is typed).
  const picker = useStore(store, (d) => d.host?.pathPicker === true);
  const setValue = (id: string, value: string) => {
    setValues((held) => ({ ...held, [id]: value }));
    setPathProblems((held) => (held.has(id) ? new Map([...held].filter(([key]) => key !== id)) : held));
  };
  const browse = async (value: CatalogueValue & { kind: PathValueKind }) => {
    const from = own(values, value.id)?.trim();
    try {
      const answer = await store.api.choosePath({ kind: value.kind, title: text(value.label), ...(from ? { from } : {}) });
      if (answer.path !== null) setValue(value.id, answer.path);
    } catch (error) {
      toast(t('values.browseFailed', { reason: (error as Error).message }), 'error');
    }
  };
  const missing = entry.values.filter((v) => v.required && !own(values, v.id)?.trim());
  const server = props.build(values);
  const copyOf = props.held.find((s) => s.name !== props.editing?.name && sameProgram(server, s));
  const serverTitle = useServerTitle();
  const add = async () => {
    setSubmitted(true);
    if (missing.length > 0 || props.busy || checking || fetching) return;
    setChecking(true);
    try {
      // Folders and files as the server will be given them: full paths, there, of the right kind.
      const checked = await paths.check();
      setPathProblems(checked.problems);
      if (checked.problems.size > 0) return;
      // Its runtime first: added without it, the server could not start.
      if (fetchFirst && (!(await runtimeFetch.download()) || closed.current)) return;
      props.onAdd(props.build(checked.values));
    } finally {
      setChecking(false);
    }
  };
  // Editing a file value: the server starts on the new file, and what the old one holds stays there (a walkthrough
  // changed the memory file and saw no memories, with nothing saying where they were).
  const oldFile = (value: CatalogueValue): string | undefined => {
    const before = props.editing && value.kind === 'file' ? own(props.editing.values, value.id)?.trim() : undefined;
    return before && own(values, value.id)?.trim() !== before ? before : undefined;
  };
  // A file left empty before kept its data in the server's own hidden place: a file named now starts without it.
  const wasEmptyFile = (value: CatalogueValue): boolean =>
    props.editing !== undefined && value.kind === 'file' && !own(props.editing.values, value.id)?.trim() && !!own(values, value.id)?.trim();
  const errorOf = (value: CatalogueValue): string | undefined => {
    if (submitted && missing.includes(value)) return t('servers.error.required');
    const problem = pathProblems.get(value.id);
    return problem ? pathProblemText(problem, value, t) : undefined;
  };
  // npx and uvx fetch the server's package on its first start; a remote server installs nothing.
  const downloads = entry.run.transport === 'stdio' && (entry.run.command === 'npx' || entry.run.command === 'uvx');
  return (
    <Dialog
      wide
      title={
        props.editing
          ? t('servers.editTitle', { name: text(entry.title) })
          : entry.values.length > 0
            ? t('catalogue.valuesTitle', { name: text(entry.title) })
            : t('add.confirmTitle', { name: text(entry.title) })
      }
      onClose={props.onClose}
      onSubmit={() => void add()}
      footer={
        <DialogFooter
          onCancel={props.onClose}
          start={
            <>
              {props.onBack ? (
                <Button kind="ghost" onClick={props.onBack}>
                  {t('catalogue.back')}
                </Button>
              ) : null}
              <Button kind="ghost" onClick={() => props.onAdvanced(server)}>
                {t('add.advanced')}
              </Button>
            </>
          }
          primary={{
            label: props.editing
              ? t('common.save')
              : fetchFirst
                ? t('add.downloadAndAdd', { runtime: RUNTIME_LABEL[fetchFirst] })
                : t('plain.catalogue.add'),
            disabled: props.busy || checking || fetching,
          }}
        />
      }
    >
      <p>{text(entry.description)}</p>
      {entry.values.length > 0 ? (
        <div className="form">
          {entry.values.map((value) => (
            <Field
              key={value.id}
              label={value.required ? `${text(value.label)} *` : t('catalogue.optional', { label: text(value.label) })}
              error={errorOf(value)}
              {...(value.hint ? { hint: text(value.hint) } : {})}
            >
              {(id) => (
                <>
                  <div className="values-input">
                    <input
                      id={id}
                      className={value.kind === 'text' ? undefined : 'mono'}
                      type={value.kind === 'secret' ? 'password' : value.kind === 'url' ? 'url' : 'text'}
                      autoComplete="off"
                      spellCheck={false}
                      value={own(values, value.id) ?? ''}
                      onChange={(e) => setValue(value.id, e.target.value)}
                    />
                    {picker && isPathValue(value) ? <Button onClick={() => void browse(value)}>{t('values.browse')}</Button> : null}
                  </div>
                  {/* The error names the full path itself. */}
                  {!pathProblems.has(value.id) && paths.resolvedFor(value.id) ? (
                    <div className="field-hint values-resolved mono">
                      {t('values.willUse', { path: paths.resolvedFor(value.id) ?? '' })}
                    </div>
                  ) : null}
                  {oldFile(value) ? (
                    <div className="field-hint values-left-behind">
                      {t('values.oldFileStays', { label: text(value.label), path: oldFile(value) ?? '' })}
                    </div>
                  ) : null}
                  {wasEmptyFile(value) ? (
                    <div className="field-hint values-left-behind">{t('values.emptyFileLeftBehind', { label: text(value.label) })}</div>
                  ) : null}
                </>
              )}
            </Field>
          ))}
        </div>
      ) : (
        <p className="muted">{t('add.needsNothing')}</p>
      )}
      <ul className="add-notes small">
        {props.runtime ? (
          // Amber only when the person must act: a runtime the app downloads itself is a normal step.
          <li className={props.runtime.missing && !fetchFirst ? 'catalogue-runtime-missing' : undefined}>
            {fetchFirst ? (
              <>
                <RuntimeSource runtime={fetchFirst} />
                {language === 'zh-CN' ? '' : ' '}
                {t('add.runtimeFetchFirst', { runtime: RUNTIME_LABEL[fetchFirst] })}
              </>
            ) : (
              props.runtime.text
            )}
            {/* Missing and not downloadable here: added now, its card waits, and says so. */}
            {props.runtime.missing && !fetchFirst && !props.editing
              ? ` ${t('add.runtimeWait', { runtime: RUNTIME_LABEL[props.runtime.need] })}`
              : ''}
            {runtimeFetch.shown?.state === 'fetching' ? <RuntimeFetching shown={runtimeFetch.shown} /> : null}
            {runtimeFetch.shown?.state === 'failed' ? <ProblemText problem={runtimeFetch.shown.problem} /> : null}
          </li>
        ) : null}
        {/* How its first start goes: news when adding, not when editing one that ran before, nor under a download that failed. */}
        {props.editing || runtimeFetch.shown?.state === 'failed' ? null : (
          <li>{downloads ? t('add.firstStart') : entry.run.transport === 'stdio' ? t('add.startsAtOnce') : t('add.remote')}</li>
        )}
        <li>
          <a href={entry.homepage} target="_blank" rel="noreferrer noopener">
            {t('catalogue.homepage')}
          </a>
        </li>
      </ul>
      {copyOf ? <Notice kind="warn">{t('plain.servers.copyOf', { name: serverTitle(copyOf.name) })}</Notice> : null}
    </Dialog>
  );
}
