import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from './ui';

export interface MenuItem {
  label: string;
  title?: string;
  onSelect: () => void;
}

/** A button with a drop-down list; Escape or a click elsewhere closes it. */
export function Menu(props: { label: string; items: MenuItem[]; onOpen?: () => void; footer?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    const onClick = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && setOpen(false);
    window.addEventListener('keydown', onKey);
    window.addEventListener('mousedown', onClick);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mousedown', onClick);
    };
  }, [open]);
  return (
    <div className="menu" ref={ref}>
      <Button
        onClick={() => {
          if (!open) props.onOpen?.();
          setOpen(!open);
        }}
      >
        {props.label} ▾
      </Button>
      {open ? (
        <ul className="menu-list" role="menu" aria-label={props.label}>
          {props.items.map((item) => (
            <li key={item.label} role="none">
              <button
                type="button"
                role="menuitem"
                title={item.title}
                onClick={() => {
                  setOpen(false);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
          {props.footer ? <li className="small muted menu-note">{props.footer}</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
