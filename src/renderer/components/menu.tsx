import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';

export interface MenuItem {
  label: string;
  title?: string;
  /** A plain line under the label saying what it is for (its description, not part of its name). */
  hint?: string;
  onSelect: () => void;
}

/**
 * A button with a drop-down menu, as the WAI-ARIA menu button pattern: Enter, Space or ArrowDown
 * open it on the first item (ArrowUp on the last), arrows and Home/End move, Enter picks, Escape or
 * Tab closes it and focus goes back to the button; a click elsewhere closes it too.
 */
export function Menu(props: { label: string; items: MenuItem[]; onOpen?: () => void; footer?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const menuId = useId();
  useEffect(() => {
    if (!open) return;
    const onClick = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && setOpen(false);
    window.addEventListener('mousedown', onClick);
    return () => window.removeEventListener('mousedown', onClick);
  }, [open]);
  useEffect(() => {
    if (open) items.current[Math.min(focusIndex, props.items.length - 1)]?.focus();
  }, [open, focusIndex, props.items.length]);

  const show = (index: number) => {
    if (!open) props.onOpen?.();
    setFocusIndex(index);
    setOpen(true);
  };
  const hide = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onButtonKey = (e: ReactKeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      show(0);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      show(Math.max(0, props.items.length - 1));
    }
  };
  const onMenuKey = (e: ReactKeyboardEvent) => {
    const last = props.items.length - 1;
    const moves = new Map([
      ['ArrowDown', focusIndex >= last ? 0 : focusIndex + 1],
      ['ArrowUp', focusIndex <= 0 ? last : focusIndex - 1],
      ['Home', 0],
      ['End', last],
    ]);
    const move = moves.get(e.key);
    if (move !== undefined) {
      e.preventDefault();
      setFocusIndex(move);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      hide(true);
    } else if (e.key === 'Tab') hide(false);
  };

  return (
    <div className="menu" ref={ref}>
      <button
        ref={button}
        type="button"
        className="btn btn-default"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? hide(false) : show(0))}
        onKeyDown={onButtonKey}
      >
        {props.label} <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <ul className="menu-list" role="menu" id={menuId} aria-label={props.label} onKeyDown={onMenuKey}>
          {props.items.map((item, index) => (
            <li key={item.label} role="none">
              <button
                ref={(el) => {
                  items.current[index] = el;
                }}
                type="button"
                role="menuitem"
                tabIndex={index === focusIndex ? 0 : -1}
                title={item.title}
                {...(item.hint !== undefined ? { 'aria-label': item.label, 'aria-describedby': `${menuId}-hint-${index}` } : {})}
                onClick={() => {
                  hide(true);
                  item.onSelect();
                }}
              >
                {item.label}
                {item.hint !== undefined ? (
                  <span className="menu-item-hint small muted" id={`${menuId}-hint-${index}`}>
                    {item.hint}
                  </span>
                ) : null}
              </button>
            </li>
          ))}
          {props.footer ? (
            <li className="small muted menu-note" role="none">
              {props.footer}
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
