import { memo } from 'react';
import { isSafeImage } from '../../shared/addresses.js';

/** Backgrounds for initials; each carries white text at WCAG AA contrast. */
const COLORS = ['#4b5fd6', '#23766c', '#a3456e', '#a65a16', '#6549a8', '#2f6fa8', '#4d6a22', '#a3473e'];

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]!;
  const last = parts.length > 1 ? parts[parts.length - 1]! : '';
  return ((first[0] ?? '') + (last[0] ?? first[1] ?? '')).toUpperCase();
}

interface AvatarProps {
  person: { id: string; name: string; image: string | null };
  size?: 'md' | 'lg';
  title?: string;
}

/** A person's picture, or their initials on a colour of their own. */
export const Avatar = memo(function Avatar({ person, size = 'md', title }: AvatarProps) {
  const className = size === 'lg' ? 'avatar avatar-lg' : 'avatar';
  const label = title ?? person.name;
  // A picture set before the server checked them could point at the API; such a person shows initials.
  if (person.image && isSafeImage(person.image, window.location.origin)) {
    return (
      <span className={className} title={label}>
        <img src={person.image} alt={label} />
      </span>
    );
  }
  return (
    <span
      className={className}
      style={{ background: COLORS[hash(person.id) % COLORS.length] }}
      title={label}
      role="img"
      aria-label={label}
    >
      {initials(person.name)}
    </span>
  );
});
