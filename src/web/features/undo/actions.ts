import i18n from '../../app/i18n';
import { toast } from '../../app/toast';
import { undoStackOf, type Outcome, type UndoStep } from './stack';

/**
 * Undo and redo as the person asks for them (keys, a toast's button), with
 * what happened said in a toast: a screen reader hears it too.
 */

function tell(outcome: Outcome, direction: 'undo' | 'redo', quietWhenEmpty = false): void {
  switch (outcome.kind) {
    case 'done':
      toast.info(i18n.t(direction === 'undo' ? 'undo.undone' : 'undo.redone'));
      return;
    case 'empty':
      if (!quietWhenEmpty) toast.info(i18n.t(direction === 'undo' ? 'undo.nothingToUndo' : 'undo.nothingToRedo'));
      return;
    case 'conflict':
      toast.error(outcome.by ? i18n.t('undo.changedBy', { name: outcome.by }) : i18n.t('undo.changedSince'));
      return;
    case 'failed':
      toast.error(i18n.t('undo.failed'));
      return;
  }
}

export async function undoLast(boardId: number): Promise<Outcome> {
  const outcome = await undoStackOf(boardId).undo();
  tell(outcome, 'undo');
  return outcome;
}

export async function redoLast(boardId: number): Promise<Outcome> {
  const outcome = await undoStackOf(boardId).redo();
  tell(outcome, 'redo');
  return outcome;
}

/** A toast's Undo: that step, wherever it stands (nothing when it was undone already). */
export async function undoStep(boardId: number, step: UndoStep): Promise<Outcome> {
  const outcome = await undoStackOf(boardId).undo(step);
  tell(outcome, 'undo', true);
  return outcome;
}

/** The Undo button a toast offers after an archive or a move to another area. */
export function undoAction(boardId: number, step: UndoStep): { label: string; run: () => void } {
  return { label: i18n.t('common.undo'), run: () => void undoStep(boardId, step) };
}
