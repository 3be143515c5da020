import type { ServerMessage, Viewer } from './events.js';

export type PresenceMessage = Extract<ServerMessage, { type: 'presence' | 'presenceChange' }>;

/**
 * A board's viewers after a presence message: a `presence` replaces the
 * list, a `presenceChange` applies to it (entries replaced in place, new ones
 * appended, those that left removed). A change without a list to apply to
 * (none received yet) answers `undefined`: the full list is on its way.
 */
export function applyPresence(viewers: readonly Viewer[] | undefined, message: PresenceMessage): Viewer[] | undefined {
  if (message.type === 'presence') return message.viewers;
  if (!viewers) return undefined;
  const left = new Set(message.left);
  const changed = new Map(message.viewers.map((v) => [v.id, v]));
  const next: Viewer[] = [];
  for (const viewer of viewers) {
    if (left.has(viewer.id)) continue;
    const replaced = changed.get(viewer.id);
    changed.delete(viewer.id);
    next.push(replaced ?? viewer);
  }
  next.push(...changed.values());
  return next;
}
