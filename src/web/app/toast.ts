import { useSyncExternalStore } from 'react';

export interface Toast {
  id: number;
  message: string;
  kind: 'info' | 'error';
  action?: { label: string; run: () => void };
}

let toasts: Toast[] = [];
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Errors, and toasts offering an action (Undo), stay longer: there is something to read or do. */
function show(
  message: string,
  kind: Toast['kind'],
  action?: Toast['action'],
  ms = kind === 'error' ? 6000 : action ? 8000 : 4000,
): number {
  const id = nextId++;
  toasts = [...toasts.slice(-3), { id, message, kind, ...(action ? { action } : {}) }];
  emit();
  timers.set(
    id,
    setTimeout(() => dismiss(id), ms),
  );
  return id;
}

export function dismiss(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

/** Keeps a toast while it is pointed at or has the focus (its Undo button is being reached for)… */
export function hold(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
}

/** …and lets it go a few seconds after that ends. */
export function release(id: number): void {
  if (!toasts.some((t) => t.id === id) || timers.has(id)) return;
  timers.set(
    id,
    setTimeout(() => dismiss(id), 4000),
  );
}

/** Short messages at the bottom of the screen; errors stay a little longer. */
export const toast = {
  info: (message: string, action?: Toast['action']) => show(message, 'info', action),
  error: (message: string, action?: Toast['action']) => show(message, 'error', action),
};

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
  );
}
