import { useState } from 'react';

import type { CheckedTool, SentenceCheck } from '../../shared/model-api';
import { own } from '../../shared/own';
import type { Problem } from '../../shared/problem';
import { useApp } from '../app-context';
import { ProblemText } from '../components/problem-text';
import { Button, Field, Notice } from '../components/ui';
import { useCommand } from '../components/use-command';
import { formatBytes } from '../format';
import { useStore } from '../store/bridge-store';

type Suggestion = { server: string; tool: string; description: string; current: string; currentBytes: number; newBytes: number };

/**
 * Sample sentences per tool (kept with the config), "Check all" (how often the model picks the right tool
 * with valid arguments), and for a tool that fails, a shorter description from the same model, accepted
 * into the tool's description override with the bytes it saves shown.
 */
export function SentenceSetsPanel(props: { endpoint: string | undefined; ready: boolean }) {
  const { store, t, toast } = useApp();
  const catalog = useStore(store, (d) => d.catalog);
  const sets = useStore(store, (d) => d.settings?.sentences) ?? {};
  const run = useCommand();
  const [editing, setEditing] = useState<{ server: string; tool: string; text: string } | undefined>();
  const [check, setCheck] = useState<SentenceCheck | undefined>();
  const [busy, setBusy] = useState(false);
  const [suggestion, setSuggestion] = useState<Suggestion | { problem: Problem } | undefined>();
  const endpoint = props.endpoint !== undefined ? { endpoint: props.endpoint } : {};
  const tools = catalog.filter((tool) => tool.enabled);
  const sentencesOf = (server: string, tool: string): string[] => own(own(sets, server), tool) ?? [];
  const checked = (server: string, tool: string): CheckedTool | undefined =>
    check?.tools.find((c) => c.server === server && c.tool === tool);
  const checkAll = async (only: { server?: string; tool?: string } = {}) => {
    setBusy(true);
    try {
      const result = await store.api.checkSentences({ ...endpoint, ...only });
      // A check of one tool replaces that tool's line and keeps the others'.
      setCheck((before) =>
        only.tool === undefined || !before
          ? result
          : { ...result, tools: [...before.tools.filter((c) => c.server !== only.server || c.tool !== only.tool), ...result.tools] },
      );
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  const suggest = async (server: string, tool: string) => {
    setSuggestion(undefined);
    setBusy(true);
    try {
      const answer = await store.api.suggestDescription({ ...endpoint, server, tool });
      setSuggestion('problem' in answer ? answer : { server, tool, ...answer });
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  const accept = async (s: Suggestion) => {
    const ok = await run(() => store.api.setToolDescription({ server: s.server, tool: s.tool, description: s.description }));
    if (!ok) return;
    setSuggestion(undefined);
    toast(t('try.suggest.accepted'));
    await checkAll({ server: s.server, tool: s.tool });
  };
  const anySentences = Object.keys(sets).length > 0;

  return (
    <section className="panel form" aria-labelledby="sets-title">
      <h2 id="sets-title">{t('try.sets.title')}</h2>
      <p className="field-hint">{t('try.sets.lead')}</p>
      {tools.length === 0 ? <p className="small muted">{t('try.sets.none')}</p> : null}
      <ul className="try-sets">
        {tools.map((tool) => {
          const result = checked(tool.server, tool.originalName);
          const count = sentencesOf(tool.server, tool.originalName).length;
          return (
            <li key={`${tool.server}/${tool.originalName}`}>
              <div className="try-set-row">
                <code>{tool.name}</code>
                <span className="small muted">{t('try.sets.count', { count })}</span>
                {result ? (
                  <span className={`small ${result.passed === result.total ? 'ok-text' : 'error-text'}`}>
                    {t('try.sets.passed', { passed: result.passed, total: result.total })}
                  </span>
                ) : null}
                <span className="spacer" />
                <Button
                  small
                  onClick={() =>
                    setEditing({
                      server: tool.server,
                      tool: tool.originalName,
                      text: sentencesOf(tool.server, tool.originalName).join('\n'),
                    })
                  }
                >
                  {t('try.sets.edit')}
                </Button>
                {result && result.passed < result.total ? (
                  <Button small disabled={busy || !props.ready} onClick={() => void suggest(tool.server, tool.originalName)}>
                    {t('try.sets.suggest')}
                  </Button>
                ) : null}
              </div>
              {result?.failures.map((failure, i) => (
                <div key={i} className="small muted">
                  “{failure.sentence}”{' '}
                  {failure.reason === 'other'
                    ? t('try.sets.fail.other', { name: failure.picked ?? '?' })
                    : t(`try.sets.fail.${failure.reason}`)}
                </div>
              ))}
              {editing && editing.server === tool.server && editing.tool === tool.originalName ? (
                <div>
                  <Field label={t('try.sets.editLabel')}>
                    {(id) => (
                      <textarea id={id} rows={3} value={editing.text} onChange={(e) => setEditing({ ...editing, text: e.target.value })} />
                    )}
                  </Field>
                  <Button
                    small
                    kind="primary"
                    onClick={() =>
                      void run(() =>
                        store.api.setToolSentences({ server: editing.server, tool: editing.tool, sentences: editing.text.split('\n') }),
                      ).then((ok) => {
                        if (!ok) return;
                        setEditing(undefined);
                        toast(t('try.sets.saved'));
                      })
                    }
                  >
                    {t('common.save')}
                  </Button>
                </div>
              ) : null}
              {suggestion && 'description' in suggestion && suggestion.server === tool.server && suggestion.tool === tool.originalName ? (
                <div className="try-result">
                  <p className="small">{t('try.suggest.current')}</p>
                  <p>{suggestion.current}</p>
                  <p className="small">{t('try.suggest.suggested')}</p>
                  <p>
                    <strong>{suggestion.description}</strong>
                  </p>
                  <p className="small">
                    {suggestion.newBytes <= suggestion.currentBytes
                      ? t('try.suggest.saves', {
                          before: formatBytes(suggestion.currentBytes),
                          after: formatBytes(suggestion.newBytes),
                          saved: formatBytes(suggestion.currentBytes - suggestion.newBytes),
                        })
                      : t('try.suggest.adds', {
                          before: formatBytes(suggestion.currentBytes),
                          after: formatBytes(suggestion.newBytes),
                          added: formatBytes(suggestion.newBytes - suggestion.currentBytes),
                        })}
                  </p>
                  <div className="form-actions">
                    <Button small kind="primary" disabled={busy} onClick={() => void accept(suggestion)}>
                      {t('try.suggest.accept')}
                    </Button>
                  </div>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      {suggestion && 'problem' in suggestion ? <ProblemText problem={suggestion.problem} /> : null}
      {check?.problem ? <ProblemText problem={check.problem} /> : null}
      {check?.cancelled ? <Notice kind="info">{t('try.sets.cancelled')}</Notice> : null}
      <div className="form-actions">
        <Button kind="primary" disabled={busy || !props.ready || !anySentences} onClick={() => void checkAll()}>
          {busy ? t('try.suggest.asking') : t('try.sets.check')}
        </Button>
      </div>
    </section>
  );
}
