import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/errors';

/**
 * A form's submit: busy while it runs, and the refusal in words when it fails.
 * `run` may also refuse by itself (a check before any request) through `refuse`.
 */
export function useSubmit(
  run: (form: FormData, refuse: (message: string) => void) => Promise<void>,
  describe: (error: unknown) => string = errorMessage,
) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    run(form, setError)
      .catch((e: unknown) => setError(describe(e)))
      .finally(() => setBusy(false));
  };
  return { busy, error, onSubmit };
}

export const field = (form: FormData, name: string): string => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};
