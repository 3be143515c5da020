import { Type, type TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { jsonChecker, steppedChecker } from './json-check.js';

describe('jsonChecker', () => {
  it('compiles its schema on first use, not when made', () => {
    // Ajv refuses this schema when it compiles it: making the checker must not.
    const broken = { type: 'no such type' } as unknown as TSchema;
    const check = jsonChecker(broken);
    const stepped = steppedChecker(Type.Object({ items: Type.Array(broken) }), ['items']);
    expect(() => check(1)).toThrow(/schema is invalid/);
    return expect(stepped({ items: [1] })).rejects.toThrow(/schema is invalid/);
  });

  it('answers null for a fitting value and the first problem with its path, compiled once', () => {
    const check = jsonChecker(Type.Object({ name: Type.String(), size: Type.Integer() }));
    expect(check({ name: 'a', size: 1 })).toBeNull();
    expect(check({ name: 'a', size: 'x' })).toBe('/size must be integer');
    expect(check({ name: 'a', size: 2 })).toBeNull();
  });
});
