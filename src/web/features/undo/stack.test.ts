import { describe, expect, test } from 'vitest';
import { UNDO_LIMIT, UndoStack, type Conflict, type Direction, type UndoStep } from './stack';

/** A step on a counter: undo takes one off, redo puts it back; `changedBy` makes its check find someone else's change. */
function counterStep(
  state: { value: number; log: string[] },
  name: string,
  options: { changedBy?: string; refuse?: boolean } = {},
) {
  const step: UndoStep & { conflict: Conflict | null; refuse: boolean; unreachable: boolean } = {
    item: `card:${name}`,
    conflict: options.changedBy ? { by: options.changedBy } : null,
    refuse: options.refuse ?? false,
    unreachable: false,
    check(_direction: Direction) {
      if (step.unreachable) return Promise.reject(new Error('offline'));
      return Promise.resolve(step.conflict);
    },
    run(direction: Direction) {
      if (step.refuse) return Promise.resolve(false);
      state.value += direction === 'undo' ? -1 : 1;
      state.log.push(`${direction} ${name}`);
      return Promise.resolve(true);
    },
  };
  return step;
}

function world() {
  return { value: 0, log: [] as string[] };
}

describe('the undo history of a board', () => {
  test('undoes the newest change first and redoes in the order undone', async () => {
    const state = world();
    const stack = new UndoStack();
    for (const name of ['a', 'b', 'c']) {
      state.value += 1;
      stack.record(counterStep(state, name));
    }
    expect((await stack.undo()).kind).toBe('done');
    expect((await stack.undo()).kind).toBe('done');
    expect(state).toEqual({ value: 1, log: ['undo c', 'undo b'] });
    expect((await stack.redo()).kind).toBe('done');
    expect(state.log.at(-1)).toBe('redo b');
    expect(stack.sizes).toEqual({ undo: 2, redo: 1 });
  });

  test(`keeps at most ${UNDO_LIMIT} steps: the oldest fall off`, async () => {
    const state = world();
    const stack = new UndoStack();
    for (let i = 1; i <= UNDO_LIMIT + 5; i++) stack.record(counterStep(state, String(i)));
    expect(stack.sizes.undo).toBe(UNDO_LIMIT);
    let undone = 0;
    while ((await stack.undo()).kind === 'done') undone++;
    expect(undone).toBe(UNDO_LIMIT);
    expect(state.log.at(-1)).toBe('undo 6'); // 1–5 were dropped
    expect((await stack.undo()).kind).toBe('empty');
  });

  test('a new change leaves nothing to redo', async () => {
    const state = world();
    const stack = new UndoStack();
    stack.record(counterStep(state, 'a'));
    await stack.undo();
    expect(stack.canRedo).toBe(true);
    stack.record(counterStep(state, 'b'));
    expect(stack.canRedo).toBe(false);
    expect((await stack.redo()).kind).toBe('empty');
  });

  test('someone else’s change since stops the undo: nothing is sent, the history is cleared, and who it was is answered', async () => {
    const state = world();
    const stack = new UndoStack();
    stack.record(counterStep(state, 'a'));
    stack.record(counterStep(state, 'b', { changedBy: 'Ana' }));
    const outcome = await stack.undo();
    expect(outcome).toMatchObject({ kind: 'conflict', by: 'Ana' });
    expect(state.log).toEqual([]);
    expect(stack.sizes).toEqual({ undo: 0, redo: 0 });
  });

  test('a redo checks too', async () => {
    const state = world();
    const stack = new UndoStack();
    const step = counterStep(state, 'a');
    stack.record(step);
    await stack.undo();
    step.conflict = { by: null };
    expect(await stack.redo()).toMatchObject({ kind: 'conflict', by: null });
    expect(state.log).toEqual(['undo a']);
  });

  test('a refused request drops that step only; a check that cannot be asked (offline) keeps it', async () => {
    const state = world();
    const stack = new UndoStack();
    stack.record(counterStep(state, 'a'));
    const refused = counterStep(state, 'b', { refuse: true });
    stack.record(refused);
    expect((await stack.undo()).kind).toBe('failed');
    expect(stack.sizes.undo).toBe(1);

    const offline = counterStep(state, 'c');
    offline.unreachable = true;
    stack.record(offline);
    expect((await stack.undo()).kind).toBe('failed');
    expect(stack.sizes.undo).toBe(2);
    offline.unreachable = false;
    expect((await stack.undo()).kind).toBe('done');
    expect(state.log).toEqual(['undo c']);
  });

  test('a toast’s Undo undoes its own step even when others came after, and only once', async () => {
    const state = world();
    const stack = new UndoStack();
    const archived = counterStep(state, 'archived');
    stack.record(archived);
    stack.record(counterStep(state, 'later'));
    expect((await stack.undo(archived)).kind).toBe('done');
    expect(state.log).toEqual(['undo archived']);
    expect(stack.holds(archived)).toBe(false);
    expect((await stack.undo(archived)).kind).toBe('empty');
    expect(state.log).toEqual(['undo archived']);
  });

  test('quick presses run one after another, never two requests at once', async () => {
    const state = world();
    const stack = new UndoStack();
    let running = 0;
    let most = 0;
    for (const name of ['a', 'b', 'c']) {
      const step = counterStep(state, name);
      const run = step.run.bind(step);
      step.run = async (direction) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return run(direction);
      };
      stack.record(step);
    }
    await Promise.all([stack.undo(), stack.undo(), stack.undo()]);
    expect(most).toBe(1);
    expect(state.log).toEqual(['undo c', 'undo b', 'undo a']);
  });

  test('forgets the steps of an item deleted for good', () => {
    const state = world();
    const stack = new UndoStack();
    stack.record(counterStep(state, 'a'));
    stack.record(counterStep(state, 'b'));
    stack.forget('card:a');
    expect(stack.sizes.undo).toBe(1);
  });
});
