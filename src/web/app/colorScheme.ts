import { useSyncExternalStore } from 'react';

/** The reader's choice; `system` follows the operating system's setting, live. */
export type SchemePreference = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'tavla.theme';
const media = window.matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set<() => void>();

function stored(): SchemePreference {
  const value = localStorage.getItem(STORAGE_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

let preference = stored();

function apply(): void {
  const dark = preference === 'dark' || (preference === 'system' && media.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  for (const listener of listeners) listener();
}

media.addEventListener('change', apply);
// Another tab changed it.
window.addEventListener('storage', (event) => {
  if (event.key !== STORAGE_KEY) return;
  preference = stored();
  apply();
});
// Before the first render, so a dark page never flashes light.
apply();

export function setSchemePreference(next: SchemePreference): void {
  preference = next;
  if (next === 'system') localStorage.removeItem(STORAGE_KEY);
  else localStorage.setItem(STORAGE_KEY, next);
  apply();
}

export function useSchemePreference(): SchemePreference {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => preference,
  );
}
