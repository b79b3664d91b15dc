import { useMemo, useState } from 'react';

import type { ToolCallOutput } from '../../shared/bridge-api';
import { own } from '../../shared/own';
import type { CatalogTool } from '../../shared/status';
import { useApp } from '../app-context';
import { DialogFooter } from '../components/dialog-footer';
import { ProblemText } from '../components/problem-text';
import { Button, CodeField, Dialog, Field, Notice, Switch } from '../components/ui';
import { formatBytes, formatDuration } from '../format';
import { argumentsFrom, type FieldErrorCode, fieldsOf, type FormField, type FormValues, initialValues } from './schema-form';

/** Run a tool the way xiaozhi would, from a form generated from its input schema (or raw JSON). */
export function TryToolDialog({ tool, onClose }: { tool: CatalogTool; onClose: () => void }) {
  const { store, t } = useApp();
  const fields = useMemo(() => fieldsOf(tool.inputSchema), [tool.inputSchema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [raw, setRaw] = useState<string | undefined>();
  const [errors, setErrors] = useState<Record<string, FieldErrorCode>>({});
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
    if (running) return;
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
  const errorText = (field: FormField) => {
    const code = own(errors, field.name);
    return code ? t(`tryTool.error.${code}`, { min: field.min ?? '', max: field.max ?? '' }) : undefined;
  };
  const hint = (field: FormField) =>
    [field.description, field.default !== undefined ? t('tryTool.default', { value: JSON.stringify(field.default) }) : '']
      .filter(Boolean)
      .join(' · ');

  return (
    <Dialog
      wide
      title={t('tryTool.title', { name: tool.name })}
      onClose={onClose}
      onSubmit={() => void run()}
      footer={
        <DialogFooter
          onCancel={onClose}
          dismiss="close"
          start={
            <Button
              kind="ghost"
              onClick={() => setRaw(raw === undefined ? JSON.stringify(argumentsFrom(fields, values).args ?? {}, null, 2) : undefined)}
            >
              {raw === undefined ? t('tryTool.rawMode') : t('tryTool.formMode')}
            </Button>
          }
          primary={{ label: running ? t('tryTool.running') : t('tryTool.run'), disabled: running }}
        />
      }
    >
      <p className="muted">{tool.description}</p>
      {raw !== undefined ? (
        <CodeField label={t('tryTool.arguments')} error={rawError} rows={8} value={raw} onChange={setRaw} />
      ) : fields.length === 0 ? (
        <p className="muted">{t('tryTool.noArguments')}</p>
      ) : (
        <div className="form">
          {fields.map((field) => (
            <Field key={field.name} label={`${field.name}${field.required ? ' *' : ''}`} error={errorText(field)} hint={hint(field)}>
              {(id) =>
                field.kind === 'boolean' ? (
                  <Switch
                    id={id}
                    label={field.name}
                    checked={own(values, field.name) === true}
                    onChange={(v) => setValues({ ...values, [field.name]: v })}
                  />
                ) : field.kind === 'enum' ? (
                  <select
                    id={id}
                    value={String(own(values, field.name) ?? '')}
                    onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
                  >
                    <option value="">{t('tryTool.unset')}</option>
                    {field.options?.map((o, index) => (
                      <option key={index} value={String(index)}>
                        {typeof o === 'string' ? o : JSON.stringify(o)}
                      </option>
                    ))}
                  </select>
                ) : field.kind === 'json' ? (
                  <textarea
                    id={id}
                    className="mono"
                    rows={3}
                    placeholder="JSON"
                    value={String(own(values, field.name) ?? '')}
                    onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
                  />
                ) : (
                  <input
                    id={id}
                    type={field.kind === 'string' ? 'text' : 'number'}
                    {...(field.kind !== 'string' ? { step: field.kind === 'integer' ? 1 : 'any', min: field.min, max: field.max } : {})}
                    value={String(own(values, field.name) ?? '')}
                    onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
                  />
                )
              }
            </Field>
          ))}
        </div>
      )}
      {failure ? <Notice kind="error">{failure}</Notice> : null}
      {result?.error ? <ProblemText problem={result.error} /> : null}
      {result ? (
        <section className="result" aria-live="polite">
          <div className="card-row small">
            <strong>{result.isError ? t('tryTool.resultError') : t('tryTool.result')}</strong>
            <span className="muted">
              {t('tryTool.meta', { duration: formatDuration(result.durationMs, t), size: formatBytes(result.bytes) })}
            </span>
          </div>
          <pre className={`mono code-block result-text${result.isError ? ' is-error' : ''}`} data-testid="tool-result">
            {result.text}
          </pre>
          <div className="small muted">{t('tryTool.asXiaozhi')}</div>
        </section>
      ) : null}
    </Dialog>
  );
}
