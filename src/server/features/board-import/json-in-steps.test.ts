import sjson from 'secure-json-parse';
import { describe, expect, it } from 'vitest';
import { parseInSteps } from './json-in-steps.js';

const parse = (text: string): unknown => sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });

async function both(text: string): Promise<[unknown, unknown]> {
  const outcome = async (run: () => unknown) => {
    try {
      return await run();
    } catch (error) {
      return `throws ${String(error)}`;
    }
  };
  return [await outcome(() => parseInSteps(text, parse)), await outcome(() => parse(text))];
}

describe('parseInSteps', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => i);
  const large = {
    name: 'quotes " and \\ and }] in strings',
    lists: many(5000).map((i) => ({ id: `L${i}\\"`, tags: [i, { s: '}]{["' }], n: -1.5e3, t: true, z: null })),
    areas: many(3).map((i) => ({ id: i, cards: many(4000).map((j) => ({ j, text: 'é\n\u2028' })) })),
    empty: [],
    none: {},
  };

  it('answers what a parse of the whole text answers, compact or indented', async () => {
    for (const text of [JSON.stringify(large), JSON.stringify(large, null, 2)]) {
      const [stepped, whole] = await both(text);
      expect(stepped).toEqual(whole);
    }
  });

  it('answers the same error for broken or other JSON, and never sets a prototype through a key', async () => {
    const bulk = JSON.stringify(many(20000));
    for (const text of [
      `{"a": ${bulk}`,
      `{"a": ${bulk}} trailing`,
      `[${bulk}]`,
      `{"__proto__": {"polluted": 1}, "a": ${bulk}}`,
      `{"constructor": {"prototype": {"polluted": 1}}, "a": ${bulk}}`,
      '"just a string"',
    ]) {
      const [stepped, whole] = await both(text);
      expect(stepped).toEqual(whole);
      if (typeof stepped === 'object' && stepped !== null && !Array.isArray(stepped)) {
        expect(Object.getPrototypeOf(stepped)).toBe(Object.prototype);
        expect((stepped as { polluted?: unknown }).polluted).toBeUndefined();
      }
    }
  });
});
