/** The ten languages of the interface; English is the source of every key. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'cs', 'uk'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language in its own words, for the language picker. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  pt: 'Português',
  cs: 'Čeština',
  uk: 'Українська',
};

export function isLanguage(value: string | null | undefined): value is Language {
  return LANGUAGES.some((l) => l === value);
}
