import { useState } from 'react';
import type { ToolCallOutput } from '../../shared/bridge-api';
import type { CatalogTool } from '../../shared/status';
import { useApp } from '../app-context';
import { Button, Dialog, Field, Notice, Switch } from '../components/ui';
import { formatBytes, formatDuration } from '../format';
import { argumentsFrom, fieldsOf, type FormValues } from './schema-form';

/** Run a tool the way xiaozhi would, from a form generated from its input schema (or raw JSON). */
export function TryToolDialog({ tool, onClose }: { tool: CatalogTool; onClose: () => void }) {
  const { store, t } = useApp();
  const fields = fieldsOf(tool.inputSchema);
  const [values, setValues] = useState<FormValues>({});
  const [raw, setRaw] = useState<string | undefined>(fields.length === 0 ? undefined : undefined);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [rawError, setRawError] = useState<string | undefined>();
  const [result, setResult] = useState<ToolCallOutput | undefined>();
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();

  const run = async () => {
    let args: Record<string, unknown> | undefined;
    if (raw !== undefined) {
      try {
        const parsed: unknown = JSON.parse(raw || '{}');
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(t('tryTool.rawObject'));
        args = parsed as Record<string, unknown>;
        setRawError(undefined);
      } catch (error) {
        setRawError((error as Error).message);
        return;
      }
    } else {
      const built = argumentsFrom(fields, values);
      setErrors(built.errors);
      if (!built.args) return;
      args = built.args;
    }
    setRunning(true);
    setFailure(undefined);
    try {
      setResult(await store.api.callTool({ name: tool.name, arguments: args }));
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setRunning(false);
    }
  };
  const errorText = (code: string | undefined) => (code ? t(`tryTool.error.${code as 'required' | 'number' | 'integer' | 'json'}`) : undefined);

  return (
    <Dialog
      wide
      title={t('tryTool.title', { name: tool.name })}
      onClose={onClose}
      footer={
        <>
          <Button kind="ghost" onClick={() => setRaw(raw === undefined ? JSON.stringify(argumentsFrom(fields, values).args ?? {}, null, 2) : undefined)}>
            {raw === undefined ? t('tryTool.rawMode') : t('tryTool.formMode')}
          </Button>
          <span className="spacer" />
          <Button onClick={onClose}>{t('common.close')}</Button>
          <Button kind="primary" disabled={running} onClick={() => void run()}>
            {running ? t('tryTool.running') : t('tryTool.run')}
          </Button>
        </>
      }
    >
      <p className="muted">{tool.description}</p>
      {raw !== undefined ? (
        <Field label={t('tryTool.arguments')} error={rawError}>
          {(id) => <textarea id={id} className="mono code-input" rows={8} spellCheck={false} value={raw} onChange={(e) => setRaw(e.target.value)} />}
        </Field>
      ) : fields.length === 0 ? (
        <p className="muted">{t('tryTool.noArguments')}</p>
      ) : (
        <div className="form">
          {fields.map((field) => (
            <Field key={field.name} label={`${field.name}${field.required ? ' *' : ''}`} error={errorText(errors[field.name])} {...(field.description ? { hint: field.description } : {})}>
              {(id) =>
                field.kind === 'boolean' ? (
                  <Switch label={field.name} checked={values[field.name] === true} onChange={(v) => setValues({ ...values, [field.name]: v })} />
                ) : field.kind === 'enum' ? (
                  <select id={id} value={String(values[field.name] ?? '')} onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}>
                    <option value="">—</option>
                    {field.options?.map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </select>
                ) : field.kind === 'json' ? (
                  <textarea id={id} className="mono" rows={3} placeholder="JSON" value={String(values[field.name] ?? '')} onChange={(e) => setValues({ ...values, [field.name]: e.target.value })} />
                ) : (
                  <input
                    id={id}
                    inputMode={field.kind === 'string' ? 'text' : 'decimal'}
                    value={String(values[field.name] ?? '')}
                    onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
                  />
                )
              }
            </Field>
          ))}
        </div>
      )}
      {failure ? <Notice kind="error">{failure}</Notice> : null}
      {result ? (
        <section className="result" aria-live="polite">
          <div className="card-row small">
            <strong>{result.isError ? t('tryTool.resultError') : t('tryTool.result')}</strong>
            <span className="muted">{t('tryTool.meta', { duration: formatDuration(result.durationMs), size: formatBytes(result.bytes) })}</span>
          </div>
          <pre className={`mono result-text${result.isError ? ' is-error' : ''}`} data-testid="tool-result">
            {result.text}
          </pre>
          <div className="small muted">{t('tryTool.asXiaozhi')}</div>
        </section>
      ) : null}
    </Dialog>
  );
}
