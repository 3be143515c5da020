import { describe, expect, it } from 'vitest';
import { normalizeColor } from './color.js';

describe('normalizeColor', () => {
  it.each([
    ['#ABC', '#aabbcc'],
    ['abc', '#aabbcc'],
    ['  #A1b2C3 ', '#a1b2c3'],
    ['0f0f0f', '#0f0f0f'],
    ['', null],
    ['red', null],
    ['#12345', null],
    ['#1234567', null],
    ['#ggg', null],
    ['#abc; background:url(x)', null],
    [123, null],
    [null, null],
    [undefined, null],
    [{ color: '#fff' }, null],
  ])('%j → %j', (input, expected) => {
    expect(normalizeColor(input)).toBe(expected);
  });
});
