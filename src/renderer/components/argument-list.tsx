import type { ReactNode } from 'react';

import { argumentsJson, readableArguments } from '../../shared/readable-arguments';
import { useApp } from '../app-context';
import { argumentWord } from '../argument-words';
import { shownMasked } from '../masked';

/**
 * A call's arguments as a person reads them: "field: value" lines (strings unquoted, nested values
 * short), the full JSON folded under "details". Text that is not a JSON object is shown as it is.
 */
export function ArgumentList({ json, note }: { json: string; note?: ReactNode }) {
  const { t } = useApp();
  // A field's name in the window's words where we know them, its exact name small beside (not when they are the same).
  const field = (name: string) => {
    const key = argumentWord(name);
    const word = key ? t(key) : name;
    return word === name ? (
      name
    ) : (
      <>
        {word}
        <span className="mono small muted"> {name}</span>
      </>
    );
  };
  const list = readableArguments(json);
  if (!list) return <pre className="mono small">{shownMasked(json, t)}</pre>;
  if (list.length === 0) return <p className="small muted">{t('arguments.none')}</p>;
  return (
    <div className="argument-list">
      <dl className="small">
        {list.map((arg) => (
          <div key={arg.name}>
            <dt>{field(arg.name)}</dt>
            <dd>{shownMasked(arg.value, t)}</dd>
          </div>
        ))}
      </dl>
      <details className="small">
        <summary>{t('arguments.details')}</summary>
        {note}
        <pre className="mono small">{shownMasked(argumentsJson(json), t)}</pre>
      </details>
    </div>
  );
}
