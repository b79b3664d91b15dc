import { useMemo, useState } from 'react';

import { hasSelection, isSelected, MAX_OPENAPI_OPERATIONS, type OpenApiOutline } from '../../shared/openapi-selection';
import type { Problem } from '../../shared/problem';
import { useApp } from '../app-context';
import { ProblemText } from '../components/problem-text';
import { Button } from '../components/ui';

import './openapi-chooser.css';

/** Matches of a search shown at once (typing more narrows them). */
const SHOWN_MATCHES = 12;
/** Groups listed before a filter is offered. */
const FILTER_FROM = 10;

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export interface Chosen {
  operations: string;
  tags: string;
  paths: string;
}

/**
 * Which operations of an OpenAPI document a service serves. Nothing is shown of the document until
 * it is read (a button: it may be large, or slow to fetch); then a small one may be served whole,
 * and a large one (GitHub's 1,223 operations) is chosen from by its groups (tags, a list of a few
 * dozen), by a word (a search showing a dozen matches at a time) or by path, never as a list of every
 * operation. The count served is said as the choice changes, by the engine's own rule.
 */
export function OpenApiChooser(props: {
  spec: string;
  chosen: Chosen;
  onChange: (chosen: Chosen) => void;
  /** The document's security schemes, once read (for the credential's name). */
  onSchemes?: (schemes: string[]) => void;
  error?: string | undefined;
}) {
  const { t, store } = useApp();
  const [outline, setOutline] = useState<OpenApiOutline | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [reading, setReading] = useState(false);
  const selection = { operations: lines(props.chosen.operations), tags: lines(props.chosen.tags), paths: lines(props.chosen.paths) };
  const [choosing, setChoosing] = useState(hasSelection(selection));
  const [tagFilter, setTagFilter] = useState('');
  const [query, setQuery] = useState('');

  const read = async () => {
    setReading(true);
    setProblem(undefined);
    try {
      const answer = await store.api.readOpenApi({ spec: props.spec });
      if ('problem' in answer) {
        setOutline(undefined);
        setProblem(answer.problem);
      } else {
        setOutline(answer);
        props.onSchemes?.(answer.schemes);
        if (answer.operations.length > MAX_OPENAPI_OPERATIONS) setChoosing(true);
      }
    } catch (error) {
      setProblem({ code: 'service.setup', params: { platform: 'OpenAPI', detail: (error as Error).message } });
    } finally {
      setReading(false);
    }
  };

  const counts = useMemo(() => {
    const byTag = new Map<string, number>();
    for (const op of outline?.operations ?? []) for (const tag of op.tags) byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
    return byTag;
  }, [outline]);
  const served = outline ? outline.operations.filter((op) => isSelected(op, choosing ? selection : {})).length : 0;
  const set = (key: keyof Chosen, values: string[]) => props.onChange({ ...props.chosen, [key]: values.join('\n') });
  const toggle = (key: 'operations' | 'tags', value: string, on: boolean) =>
    set(key, on ? [...selection[key].filter((v) => v !== value), value] : selection[key].filter((v) => v !== value));
  const chooseAll = () => {
    setChoosing(false);
    props.onChange({ operations: '', tags: '', paths: '' });
  };

  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches =
    outline && words.length > 0
      ? outline.operations.filter((op) => {
          const text = `${op.id} ${op.method} ${op.path} ${op.summary} ${op.tags.join(' ')}`.toLowerCase();
          return words.every((word) => text.includes(word));
        })
      : [];
  const tags = (outline?.tags ?? []).filter((tag) => !tagFilter.trim() || tag.name.toLowerCase().includes(tagFilter.trim().toLowerCase()));

  const summary = hasSelection(selection)
    ? [
        selection.tags.length > 0 ? t('services.openapi.chosenTags', { tags: selection.tags.join(', ') }) : '',
        selection.paths.length > 0 ? t('services.openapi.chosenPaths', { count: selection.paths.length }) : '',
        selection.operations.length > 0 ? t('services.openapi.chosenOperations', { count: selection.operations.length }) : '',
      ]
        .filter(Boolean)
        .join(' · ')
    : t('services.openapi.chosenAll');

  return (
    <div className="openapi-chooser">
      <div className="openapi-read">
        <Button small onClick={() => void read()} disabled={reading || !props.spec.trim()}>
          {reading ? t('services.openapi.reading') : outline ? t('services.openapi.readAgain') : t('services.openapi.read')}
        </Button>
        <span className="small muted">
          {outline ? '' : t('services.openapi.summaryAndHint', { summary, hint: t('services.openapi.readHint') })}
        </span>
      </div>
      {problem ? <ProblemText problem={problem} /> : null}
      {outline ? (
        <>
          <p className="small">
            {t('services.openapi.summary', {
              title: outline.title || props.spec,
              count: outline.operations.length,
              groups: outline.tags.length,
            })}
          </p>
          {outline.operations.length <= MAX_OPENAPI_OPERATIONS ? (
            <div className="openapi-mode" role="radiogroup">
              <label className="radio">
                <input type="radio" checked={!choosing} onChange={chooseAll} />
                {t('services.openapi.all', { count: outline.operations.length })}
              </label>
              <label className="radio">
                <input type="radio" checked={choosing} onChange={() => setChoosing(true)} />
                {t('services.openapi.choose')}
              </label>
            </div>
          ) : (
            <p className="small muted">{t('services.openapi.tooManyForAll', { max: MAX_OPENAPI_OPERATIONS })}</p>
          )}
          {choosing ? (
            <div className="openapi-choose">
              {outline.tags.length > 0 ? (
                <fieldset className="fieldset">
                  <legend>{t('services.openapi.groups')}</legend>
                  {outline.tags.length > FILTER_FROM ? (
                    <Search label={t('services.openapi.filterGroups')} value={tagFilter} onChange={setTagFilter} />
                  ) : null}
                  <ul className="openapi-tags">
                    {tags.map((tag) => (
                      <li key={tag.name}>
                        <label className="check" title={tag.description}>
                          <input
                            type="checkbox"
                            checked={selection.tags.includes(tag.name)}
                            onChange={(e) => toggle('tags', tag.name, e.target.checked)}
                          />
                          <span className="mono">{tag.name}</span>
                          <span className="muted">{counts.get(tag.name) ?? 0}</span>
                        </label>
                      </li>
                    ))}
                  </ul>
                </fieldset>
              ) : null}
              <fieldset className="fieldset">
                <legend>{t('services.openapi.find')}</legend>
                <Search
                  label={t('services.openapi.find')}
                  placeholder={t('services.openapi.findPlaceholder')}
                  value={query}
                  onChange={setQuery}
                />
                {words.length > 0 && matches.length === 0 ? <p className="small muted">{t('services.openapi.noMatch')}</p> : null}
                <ul className="openapi-matches">
                  {matches.slice(0, SHOWN_MATCHES).map((op) => {
                    const byGroup = op.tags.find((tag) => selection.tags.includes(tag));
                    return (
                      <li key={op.id}>
                        <label className={byGroup ? 'check is-implied' : 'check'}>
                          <input
                            type="checkbox"
                            disabled={byGroup !== undefined}
                            checked={byGroup !== undefined || selection.operations.includes(op.id)}
                            onChange={(e) => toggle('operations', op.id, e.target.checked)}
                          />
                          <span className="mono">
                            {op.method.toUpperCase()} {op.path}
                          </span>
                          <span className="muted">{op.summary}</span>
                        </label>
                      </li>
                    );
                  })}
                </ul>
                {matches.length > SHOWN_MATCHES ? (
                  <p className="small muted">{t('services.openapi.moreMatches', { count: matches.length - SHOWN_MATCHES })}</p>
                ) : null}
                {selection.operations.length > 0 ? (
                  <ul className="chips">
                    {selection.operations.map((id) => (
                      <li key={id} className="chip">
                        <span className="mono">{id}</span>{' '}
                        <button type="button" aria-label={t('common.remove')} onClick={() => toggle('operations', id, false)}>
                          ×
                        </button>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </fieldset>
              <details>
                <summary className="small">{t('services.openapi.byPath')}</summary>
                <textarea
                  rows={3}
                  spellCheck={false}
                  className="mono"
                  aria-label={t('services.openapi.byPath')}
                  value={props.chosen.paths}
                  onChange={(e) => props.onChange({ ...props.chosen, paths: e.target.value })}
                />
              </details>
            </div>
          ) : null}
          <p className={served > MAX_OPENAPI_OPERATIONS || served === 0 ? 'small warn-text' : 'small'}>
            {served === 0
              ? t('services.openapi.servesNone')
              : served > MAX_OPENAPI_OPERATIONS
                ? t('services.openapi.servesTooMany', { count: served, max: MAX_OPENAPI_OPERATIONS })
                : t('services.openapi.serves', { count: served })}
          </p>
        </>
      ) : null}
      {props.error ? <div className="field-error">{props.error}</div> : null}
    </div>
  );
}

function Search(props: { label: string; placeholder?: string; value: string; onChange: (value: string) => void }) {
  return (
    <input
      type="search"
      aria-label={props.label}
      placeholder={props.placeholder ?? props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}
