import { useEffect, useId, useRef, type ReactNode } from 'react';

export function Button(props: {
  children: ReactNode;
  onClick?: () => void;
  kind?: 'primary' | 'danger' | 'ghost' | 'default';
  disabled?: boolean;
  type?: 'button' | 'submit';
  title?: string;
  small?: boolean;
  'aria-label'?: string;
}) {
  const { kind = 'default', small, ...rest } = props;
  return (
    <button type={props.type ?? 'button'} className={`btn btn-${kind}${small ? ' btn-small' : ''}`} onClick={rest.onClick} disabled={rest.disabled} title={rest.title} aria-label={rest['aria-label']}>
      {props.children}
    </button>
  );
}

/** An accessible on/off switch (a checkbox underneath, so keyboards and screen readers know it). */
export function Switch(props: { checked: boolean; onChange: (checked: boolean) => void; label: string; disabled?: boolean; showLabel?: boolean }) {
  return (
    <label className={`switch${props.disabled ? ' disabled' : ''}`}>
      <input type="checkbox" role="switch" checked={props.checked} disabled={props.disabled} aria-label={props.label} onChange={(e) => props.onChange(e.target.checked)} />
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

export function Field(props: { label: string; error?: string | undefined; hint?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={`field${props.error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
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

export function Notice(props: { kind?: 'info' | 'warn' | 'error'; children: ReactNode }) {
  return (
    <div className={`notice notice-${props.kind ?? 'info'}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/** A modal dialog: Escape closes it, focus moves into it and returns afterwards. */
export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; footer?: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>('input, textarea, select, button:not(.dialog-close)');
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') props.onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, []);
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div className={`dialog${props.wide ? ' dialog-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref}>
        <header className="dialog-header">
          <h2 id={titleId}>{props.title}</h2>
          <button type="button" className="dialog-close" aria-label="×" onClick={props.onClose}>
            ×
          </button>
        </header>
        <div className="dialog-body">{props.children}</div>
        {props.footer ? <footer className="dialog-footer">{props.footer}</footer> : null}
      </div>
    </div>
  );
}

/** Rows of name = value, for env variables and HTTP headers. */
export function KeyValueEditor(props: {
  value: [string, string][];
  onChange: (value: [string, string][]) => void;
  keyLabel: string;
  valueLabel: string;
  addLabel: string;
  removeLabel: string;
}) {
  const update = (index: number, pair: [string, string]) => props.onChange(props.value.map((p, i) => (i === index ? pair : p)));
  return (
    <div className="kv">
      {props.value.map(([key, value], index) => (
        <div className="kv-row" key={index}>
          <input aria-label={`${props.keyLabel} ${index + 1}`} placeholder={props.keyLabel} value={key} onChange={(e) => update(index, [e.target.value, value])} spellCheck={false} />
          <input aria-label={`${props.valueLabel} ${index + 1}`} placeholder={props.valueLabel} value={value} onChange={(e) => update(index, [key, e.target.value])} spellCheck={false} />
          <Button kind="ghost" small aria-label={`${props.removeLabel} ${key || index + 1}`} onClick={() => props.onChange(props.value.filter((_, i) => i !== index))}>
            ✕
          </Button>
        </div>
      ))}
      <Button small onClick={() => props.onChange([...props.value, ['', '']])}>
        + {props.addLabel}
      </Button>
    </div>
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
