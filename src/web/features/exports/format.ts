const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** "1.4 MB", "830 kB" in the given language. */
export function formatBytes(bytes: number, language: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** "7 sec", "2 min 5 sec" in the given language. */
export function formatElapsed(ms: number, language: string): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const unit = (value: number, name: 'minute' | 'second') =>
    new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  if (seconds < 60) return unit(seconds, 'second');
  return `${unit(Math.floor(seconds / 60), 'minute')} ${unit(seconds % 60, 'second')}`;
}

/** A whole percentage, or null when the size is unknown. */
export function percentOf(received: number, total: number | null): number | null {
  if (!total) return null;
  return Math.min(100, Math.round((received / total) * 100));
}
