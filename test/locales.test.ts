import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/web/app/languages.js';

const here = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/web/locales');
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = '', into = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into.set(name, value);
    else flatten(value, name, into);
  }
  return into;
}

function read(language: string, part: string): Map<string, string> {
  return flatten(JSON.parse(readFileSync(path.join(here, language, part), 'utf8')) as Tree);
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((m) => m[1]).sort();

/** The plural forms a language uses for whole numbers (what i18next picks for a count). */
function pluralForms(language: string): Set<string> {
  const rules = new Intl.PluralRules(language);
  const forms = new Set<string>();
  for (let n = 0; n <= 1000; n++) forms.add(rules.select(n));
  // i18next's fallback for any count, fractions included.
  forms.add('other');
  return forms;
}

/**
 * Every language has every key of English, no key English lacks, no empty
 * text, the same {{placeholders}}, and the plural forms its grammar needs.
 */
describe('translations', () => {
  const parts = readdirSync(path.join(here, 'en')).filter((f) => f.endsWith('.json'));

  it('English has the parts the app bundles', () => {
    const index = readFileSync(path.join(here, 'en/index.ts'), 'utf8');
    for (const part of parts) expect(index).toContain(`./${part}'`);
  });

  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    it(`${language} is complete`, () => {
      const problems: string[] = [];
      const forms = pluralForms(language);
      const categories = new Set<string>(new Intl.PluralRules(language).resolvedOptions().pluralCategories);
      for (const part of parts) {
        if (!existsSync(path.join(here, language, part))) {
          problems.push(`${language}/${part}: missing file`);
          continue;
        }
        const english = read('en', part);
        const theirs = read(language, part);
        const pluralBases = new Set([...english.keys()].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
        for (const [key, text] of english) {
          if (PLURAL.test(key) && pluralBases.has(key.replace(PLURAL, ''))) continue;
          const translated = theirs.get(key);
          if (translated === undefined) problems.push(`${language}/${part}: missing ${key}`);
          else if (!translated.trim()) problems.push(`${language}/${part}: empty ${key}`);
          else if (placeholders(translated).join() !== placeholders(text).join())
            problems.push(
              `${language}/${part}: ${key} has {{${placeholders(translated).join(', ')}}}, English {{${placeholders(text).join(', ')}}}`,
            );
        }
        for (const base of pluralBases) {
          const allowed = new Set(
            [...english.keys()].filter((k) => k.replace(PLURAL, '') === base).flatMap((k) => placeholders(english.get(k)!)),
          );
          for (const form of forms) {
            const text = theirs.get(`${base}_${form}`);
            if (text === undefined) problems.push(`${language}/${part}: missing ${base}_${form}`);
            else if (placeholders(text).some((p) => !allowed.has(p)))
              problems.push(`${language}/${part}: ${base}_${form} has an unknown placeholder`);
          }
        }
        for (const key of theirs.keys()) {
          const base = key.replace(PLURAL, '');
          const known =
            english.has(key) || (PLURAL.test(key) && pluralBases.has(base) && categories.has(key.slice(base.length + 1)));
          if (!known) problems.push(`${language}/${part}: ${key} is not an English key`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
