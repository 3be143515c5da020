import { describe, expect, it } from 'vitest';
import { checklistOf } from './checklist.js';

describe('checklistOf', () => {
  it('counts task lines and the ticked ones', () => {
    expect(checklistOf('Plan\n- [ ] one\n- [x] two\n* [X] three\n  + [ ]\ntext')).toEqual({ done: 2, total: 4 });
  });

  it('ignores what only looks like a task: links, missing space, code blocks', () => {
    expect(
      checklistOf('- [x](https://example.org)\n- [x]done\n```\n- [ ] in code\n```\n~~~\n- [x] also code\n~~~\n- [ ] real'),
    ).toEqual({
      done: 0,
      total: 1,
    });
  });
});
