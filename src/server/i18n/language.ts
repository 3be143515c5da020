import { LANGUAGES, type Language } from '../config.js';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language of ours an `Accept-Language` header prefers most (`de-AT` is
 * German; `q=0` refuses), or null when it names none of them.
 */
export function fromAcceptLanguage(header: string | undefined): Language | null {
  if (!header) return null;
  let best: { language: Language; q: number } | null = null;
  for (const part of header.split(',')) {
    const [tag = '', ...options] = part.trim().split(';');
    const base = tag.trim().toLowerCase().split('-')[0];
    if (!isLanguage(base)) continue;
    const qOption = options.map((o) => o.trim()).find((o) => o.startsWith('q='));
    const q = qOption === undefined ? 1 : Number(qOption.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    // Equal weights keep the header's order.
    if (!best || q > best.q) best = { language: base, q };
  }
  return best?.language ?? null;
}

/** Whom a text is for decides its language: the account's, else what the request asks for, else the instance's. */
export function readerLanguage(
  account: string | null | undefined,
  acceptLanguage: string | undefined,
  instance: Language,
): Language {
  if (isLanguage(account)) return account;
  return fromAcceptLanguage(acceptLanguage) ?? instance;
}
