/**
 * `#RGB`, `RGB`, `#RRGGBB` or `RRGGBB`, any case, surrounding blanks ignored →
 * `#rrggbb`; anything else (including non-strings and "") → null, meaning the
 * tile takes the instance's primary colour.
 */
export function normalizeColor(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match?.[1]) return null;
  const hex = match[1].toLowerCase();
  return hex.length === 3 ? `#${[...hex].map((c) => c + c).join('')}` : `#${hex}`;
}
