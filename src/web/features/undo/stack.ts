/**
 * The undo history of one board in one tab: what this person changed there,
 * newest last, at most `limit` steps. It lives in memory only, so a reload or
 * another tab starts with an empty history.
 *
 * A step knows how to check that its item is still as this tab left it, and
 * how to send the inverse request (undo) or the original one again (redo)
 * through the normal API. When the check finds that someone else changed the
 * item since, nothing is sent and the whole history is cleared: the steps
 * below it were made on top of a state that is no longer there.
 */

export const UNDO_LIMIT = 20;

/** Someone else changed the item: who (null when that cannot be told). */
export interface Conflict {
  by: string | null;
}

export type Direction = 'undo' | 'redo';

export interface UndoStep {
  /** What the step changed, such as `card:12` (for messages and tests). */
  readonly item: string;
  /** Null when the item is as this tab left it; otherwise who changed it since. Throws when it cannot tell. */
  check(direction: Direction): Promise<Conflict | null>;
  /** Sends the request; false when the server refused it (the request's own code has said why). */
  run(direction: Direction): Promise<boolean>;
}

export type Outcome =
  | { kind: 'done'; step: UndoStep }
  | { kind: 'empty' }
  | { kind: 'conflict'; step: UndoStep; by: string | null }
  | { kind: 'failed'; step: UndoStep };

export class UndoStack {
  #done: UndoStep[] = [];
  #undone: UndoStep[] = [];
  #queue: Promise<unknown> = Promise.resolve();

  constructor(readonly limit = UNDO_LIMIT) {}

  get canUndo(): boolean {
    return this.#done.length > 0;
  }

  get canRedo(): boolean {
    return this.#undone.length > 0;
  }

  get sizes(): { undo: number; redo: number } {
    return { undo: this.#done.length, redo: this.#undone.length };
  }

  /** A new change of mine: it goes on top, the oldest beyond the limit falls off, and nothing is left to redo. */
  record(step: UndoStep): void {
    this.#done.push(step);
    if (this.#done.length > this.limit) this.#done.splice(0, this.#done.length - this.limit);
    this.#undone = [];
  }

  /** Whether a step can still be undone (a toast's Undo button asks before it offers itself again). */
  holds(step: UndoStep): boolean {
    return this.#done.includes(step);
  }

  /** Drops the steps about an item that is gone for good (a card deleted here). */
  forget(item: string): void {
    this.#done = this.#done.filter((s) => s.item !== item);
    this.#undone = this.#undone.filter((s) => s.item !== item);
  }

  clear(): void {
    this.#done = [];
    this.#undone = [];
  }

  /** Undoes the newest step, or a given one still on the stack (a toast's Undo); one at a time, in order. */
  undo(step?: UndoStep): Promise<Outcome> {
    return this.#serial(() => this.#step('undo', step));
  }

  redo(): Promise<Outcome> {
    return this.#serial(() => this.#step('redo'));
  }

  #serial(work: () => Promise<Outcome>): Promise<Outcome> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #step(direction: Direction, wanted?: UndoStep): Promise<Outcome> {
    const from = direction === 'undo' ? this.#done : this.#undone;
    const step = wanted ?? from[from.length - 1];
    if (!step || !from.includes(step)) return { kind: 'empty' };
    let conflict: Conflict | null;
    try {
      conflict = await step.check(direction);
    } catch {
      return { kind: 'failed', step }; // could not ask (offline): the step stays
    }
    if (!from.includes(step)) return { kind: 'empty' }; // cleared while checking
    if (conflict) {
      this.clear();
      return { kind: 'conflict', step, by: conflict.by };
    }
    const ok = await step.run(direction);
    const index = from.indexOf(step);
    if (index >= 0) from.splice(index, 1);
    if (!ok) return { kind: 'failed', step };
    (direction === 'undo' ? this.#undone : this.#done).push(step);
    return { kind: 'done', step };
  }
}

const stacks = new Map<number, UndoStack>();

/** The history of one board in this tab. */
export function undoStackOf(boardId: number): UndoStack {
  let stack = stacks.get(boardId);
  if (!stack) {
    stack = new UndoStack();
    stacks.set(boardId, stack);
  }
  return stack;
}
