import { type ReactNode, useEffect, useEffectEvent, useId, useRef } from 'react';

import { useApp } from '../app-context';

export function Button(props: {
  children: ReactNode;
  onClick?: () => void;
  kind?: 'primary' | 'danger' | 'ghost' | 'default';
  disabled?: boolean;
  type?: 'button' | 'submit';
  title?: string;
  small?: boolean;
  'aria-label'?: string;
  /** Takes the focus when its dialog opens (a dialog's first field is chosen otherwise). */
  autoFocus?: boolean;
}) {
  const { kind = 'default', small, ...rest } = props;
  return (
    <button
      data-autofocus={props.autoFocus ? '' : undefined}
      type={props.type ?? 'button'}
      className={`btn btn-${kind}${small ? ' btn-small' : ''}`}
      onClick={rest.onClick}
      disabled={rest.disabled}
      title={rest.title}
      aria-label={rest['aria-label']}
    >
      {props.children}
    </button>
  );
}

/**
 * An accessible on/off switch (a checkbox underneath, so keyboards and screen readers know it).
 * `mixed`: some of what it stands for are on (a group switch); turning it on turns them all on.
 */
export function Switch(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  disabled?: boolean;
  showLabel?: boolean;
  mixed?: boolean;
  id?: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = props.mixed === true;
  }, [props.mixed]);
  return (
    <label className={`switch${props.disabled ? ' disabled' : ''}${props.mixed ? ' mixed' : ''}`}>
      <input
        ref={ref}
        id={props.id}
        type="checkbox"
        role={props.mixed ? 'checkbox' : 'switch'}
        aria-checked={props.mixed ? 'mixed' : props.checked}
        checked={props.checked && !props.mixed}
        disabled={props.disabled}
        aria-label={props.label}
        onChange={(e) => props.onChange(props.mixed ? true : e.target.checked)}
      />
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      {props.showLabel ? <span className="switch-label">{props.label}</span> : null}
    </label>
  );
}

export type Tone = 'ok' | 'warn' | 'busy' | 'off' | 'bad';

export function StatusBadge(props: { tone: Tone; children: ReactNode }) {
  return (
    <span className={`badge badge-${props.tone}`}>
      <span className="dot" aria-hidden="true" />
      {props.children}
    </span>
  );
}

/** The technical name of a thing after its plain one, small, for those who know it. */
export function Term({ children }: { children: string | undefined }) {
  return children ? <span className="term"> {children}</span> : null;
}

export function Field(props: {
  label: string;
  /** The technical name, shown small after the label. */
  term?: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={`field${props.error ? ' has-error' : ''}`}>
      <label htmlFor={id}>
        {props.label}
        <Term>{props.term}</Term>
      </label>
      {props.children(id)}
      {props.error ? (
        <div className="field-error" role="alert">
          {props.error}
        </div>
      ) : props.hint ? (
        <div className="field-hint">{props.hint}</div>
      ) : null}
    </div>
  );
}

/** A web address typed in a Field: the URL keyboard, no spell-check. */
export function UrlInput(props: { id: string; value: string; placeholder?: string | undefined; onChange: (value: string) => void }) {
  return (
    <input
      id={props.id}
      type="url"
      inputMode="url"
      spellCheck={false}
      placeholder={props.placeholder ?? 'https://'}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}

/** Text a program reads (JSON, a command's arguments a line each): monospace, no spell-check, what is wrong under it. */
export function CodeField(props: {
  label: string;
  error?: string | undefined;
  hint?: string;
  rows: number;
  value: string;
  onChange: (text: string) => void;
}) {
  const { label, error, hint, onChange, ...rest } = props;
  return (
    <Field label={label} error={error} hint={hint}>
      {(id) => <textarea id={id} className="mono code-input" spellCheck={false} {...rest} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

/** A labelled choice of a few values, each with the words shown for it. */
export function SelectField<T extends string>(props: {
  label: string;
  hint?: string;
  value: T;
  options: readonly (readonly [value: T, text: string])[];
  onChange: (value: T) => void;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      {(id) => (
        <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value as T)}>
          {props.options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function Notice(props: { kind?: 'info' | 'warn' | 'error'; children: ReactNode }) {
  return (
    <div className={`notice notice-${props.kind ?? 'info'}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/**
 * A modal dialog on the native <dialog> (showModal): the browser traps focus inside and makes the
 * page behind inert; Escape closes it; focus returns where it was. With `onSubmit`, the body is a
 * form, so Enter in a field submits it (the footer's submit button runs the same).
 */
export function Dialog(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  onSubmit?: () => void;
}) {
  const { t } = useApp();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The latest onClose, read when the dialog is dismissed (not a ref written during render).
  const close = useEffectEvent(() => props.onClose());
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement as HTMLElement | null;
    if (typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal();
    else dialog.setAttribute('open', '');
    // What asked for the focus; else the first field; with none, the action Enter would take, then any button.
    const first = [
      '[data-autofocus], [autofocus]',
      '.dialog-body input:not([type=hidden]), .dialog-body textarea, .dialog-body select',
      'button[type=submit]',
      '.dialog-body button, .dialog-footer button',
    ]
      .map((selector) => dialog.querySelector<HTMLElement>(selector))
      .find((element) => element !== null);
    first?.focus();
    const onCancel = (e: Event) => {
      e.preventDefault();
      close();
    };
    // jsdom has no showModal: Escape is handled here too.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && typeof dialog.showModal !== 'function') close();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('keydown', onKey);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('keydown', onKey);
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      previous?.focus();
    };
  }, []);
  const body = (
    <>
      <header className="dialog-header">
        <h2 id={titleId}>{props.title}</h2>
        <button type="button" className="dialog-close" aria-label={t('common.close')} title={t('common.close')} onClick={props.onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <div className="dialog-body">{props.children}</div>
      {props.footer ? <footer className="dialog-footer">{props.footer}</footer> : null}
    </>
  );
  return (
    <dialog
      className={`dialog${props.wide ? ' dialog-wide' : ''}`}
      aria-labelledby={titleId}
      ref={ref}
      onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}
    >
      {props.onSubmit ? (
        <form
          className="dialog-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            props.onSubmit?.();
          }}
        >
          {body}
        </form>
      ) : (
        <div className="dialog-form">{body}</div>
      )}
    </dialog>
  );
}

/** A titled set of name = value rows, for env variables and HTTP headers. */
export function KeyValueEditor(props: {
  legend: string;
  term?: string;
  value: [string, string][];
  onChange: (value: [string, string][]) => void;
}) {
  const { t } = useApp();
  const keyLabel = t('kv.name');
  const valueLabel = t('kv.value');
  const update = (index: number, pair: [string, string]) => props.onChange(props.value.map((p, i) => (i === index ? pair : p)));
  return (
    <fieldset className="fieldset">
      <legend>
        {props.legend}
        <Term>{props.term}</Term>
      </legend>
      <div className="kv">
        {props.value.map(([key, value], index) => (
          <div className="kv-row" key={index}>
            <input
              aria-label={`${keyLabel} ${index + 1}`}
              placeholder={keyLabel}
              value={key}
              onChange={(e) => update(index, [e.target.value, value])}
              spellCheck={false}
            />
            <input
              aria-label={`${valueLabel} ${index + 1}`}
              placeholder={valueLabel}
              value={value}
              onChange={(e) => update(index, [key, e.target.value])}
              spellCheck={false}
            />
            <Button
              kind="ghost"
              small
              aria-label={`${t('common.remove')} ${key || index + 1}`}
              onClick={() => props.onChange(props.value.filter((_, i) => i !== index))}
            >
              ✕
            </Button>
          </div>
        ))}
        <Button small onClick={() => props.onChange([...props.value, ['', '']])}>
          + {t('kv.add')}
        </Button>
      </div>
    </fieldset>
  );
}

export function EmptyState(props: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <div className="empty-title">{props.title}</div>
      {props.children}
    </div>
  );
}
