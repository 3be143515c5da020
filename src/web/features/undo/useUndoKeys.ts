import { useEffect } from 'react';
import { redoLast, undoLast } from './actions';
import { setUndoUser } from './who';

/** Where the browser's own text undo belongs: fields, editors, anything editable. */
export function editsText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[contenteditable=""], [contenteditable="true"]')) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image'].includes(target.type);
  }
  return false;
}

/** Which history key a key press is: Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo. */
export function historyKey(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
): 'undo' | 'redo' | null {
  if (event.altKey || !(event.ctrlKey || event.metaKey)) return null;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && event.ctrlKey && !event.shiftKey) return 'redo';
  return null;
}

/**
 * The board page's undo keys. Inside a text field the keys stay the
 * browser's, so typing can be undone letter by letter as anywhere else.
 */
export function useUndoKeys(boardId: number, userId: string, enabled = true): void {
  useEffect(() => {
    setUndoUser(userId);
  }, [userId]);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const which = historyKey(event);
      if (!which || editsText(event.target)) return;
      event.preventDefault();
      void (which === 'undo' ? undoLast(boardId) : redoLast(boardId));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [boardId, enabled]);
}
