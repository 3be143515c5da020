import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Icon, type IconName } from './Icon';

interface MenuButtonProps {
  /** The accessible name of the button. */
  label: string;
  icon?: IconName;
  className?: string;
  children: (close: () => void) => ReactNode;
  /** Visible text beside the icon (else an icon-only button). */
  text?: string;
}

/** A button that opens a small menu: arrow keys move, Escape and a click outside close it. */
export function MenuButton({ label, icon = 'more', className, children, text }: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const buttonId = useId();
  // By id, not through the ref: `close` is handed to the menu's content while it renders.
  const close = () => {
    setOpen(false);
    document.getElementById(buttonId)?.focus();
  };

  useLayoutEffect(() => {
    if (!open || !buttonRef.current || !menuRef.current) return;
    const rect = buttonRef.current.getBoundingClientRect();
    const menu = menuRef.current.getBoundingClientRect();
    const left = Math.max(8, Math.min(rect.right - menu.width, window.innerWidth - menu.width - 8));
    const below = rect.bottom + 4;
    const top = below + menu.height > window.innerHeight - 8 ? Math.max(8, rect.top - menu.height - 4) : below;
    setPosition({ top, left });
    menuRef.current.querySelector<HTMLElement>('[role^="menuitem"]')?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    const onScroll = (event: Event) => {
      if (!menuRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', () => setOpen(false), { once: true });
    return () => {
      document.removeEventListener('mousedown', onDown);
      window.removeEventListener('scroll', onScroll, true);
    };
  }, [open]);

  const onKeyDown = (event: React.KeyboardEvent) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      items[(index + 1) % items.length]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      items[(index - 1 + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className={className ?? (text ? 'btn btn-ghost btn-sm' : 'icon-btn')}
        aria-label={text ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={(event) => {
          event.stopPropagation();
          setOpen((o) => !o);
        }}
        onKeyDown={(event) => event.stopPropagation()}
      >
        <Icon name={icon} />
        {text}
      </button>
      {open &&
        createPortal(
          <div
            ref={menuRef}
            className="menu"
            role="menu"
            aria-label={label}
            style={position ? { top: position.top, left: position.left } : { top: -9999, left: -9999 }}
            onKeyDown={onKeyDown}
            onClick={(event) => event.stopPropagation()}
          >
            {children(close)}
          </div>,
          document.body,
        )}
    </>
  );
}

interface MenuItemProps {
  icon?: IconName;
  danger?: boolean;
  onSelect: () => void;
  children: ReactNode;
  disabled?: boolean;
  /** A choice among several (shown ticked when chosen). */
  checked?: boolean;
}

export function MenuItem({ icon, danger, onSelect, children, disabled, checked }: MenuItemProps) {
  return (
    <button
      type="button"
      role={checked === undefined ? 'menuitem' : 'menuitemradio'}
      aria-checked={checked}
      className={`menu-item${danger ? ' danger' : ''}`}
      onClick={onSelect}
      disabled={disabled}
    >
      {icon && <Icon name={icon} size={16} />}
      {children}
      {checked && <Icon name="check" size={16} className="menu-check" />}
    </button>
  );
}

export function MenuSeparator() {
  return <div className="menu-sep" role="separator" />;
}
