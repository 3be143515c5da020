import { LANGUAGES, type Language } from '../config.js';
import { formatDate, texts } from './messages.js';
import { renderNotification, type NotificationData, type NotificationType } from './notifications.js';

/*
 * For the rows written while notifications were stored as sentences: finds
 * the parameters back by matching a sentence against each language's
 * template. Only a reading that renders back to exactly the stored sentence
 * counts, so a name containing the template's own words is either read right
 * or not at all.
 */

const MARK = '\u0000';
const marker = (name: string) => `${MARK}${name}${MARK}`;

interface Pattern {
  regex: RegExp;
  names: string[];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A template filled with markers, turned into a regex with one group per marker. */
function pattern(template: (p: Record<string, string>) => string, names: string[]): Pattern {
  const filled = template(Object.fromEntries(names.map((n) => [n, marker(n)])));
  const order: string[] = [];
  const parts = filled.split(MARK);
  let source = '^';
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      order.push(part);
      source += '([\\s\\S]*?)';
    } else source += escapeRegex(part);
  });
  return { regex: new RegExp(source + '$'), names: order };
}

type Reading = (groups: Record<string, string>, due: string[], language: Language) => NotificationData | null;

/** Per type: the templates that may have written it, and how their words become parameters. */
function candidates(type: NotificationType, language: Language): Array<{ pattern: Pattern; read: Reading }> {
  const t = texts[language] as unknown as Record<string, (p: Record<string, string>) => string>;
  const use = (key: string, names: string[], read: Reading) => ({ pattern: pattern(t[key]!, names), read });
  switch (type) {
    case 'card_created':
      return [
        use('cardCreated', ['actor', 'card', 'board'], (g) => ({
          type,
          params: { actor: g.actor!, card: g.card!, board: g.board! },
        })),
      ];
    case 'card_moved':
      return [
        use('cardMoved', ['actor', 'card', 'from', 'to'], (g) => ({
          type,
          params: { actor: g.actor!, card: g.card!, from: g.from!, to: g.to! },
        })),
      ];
    case 'card_status_changed':
      return [
        use('cardDone', ['actor', 'card'], (g) => ({ type, params: { actor: g.actor!, card: g.card!, done: true } })),
        use('cardReopened', ['actor', 'card'], (g) => ({ type, params: { actor: g.actor!, card: g.card!, done: false } })),
      ];
    case 'card_assigned':
      return [use('cardAssigned', ['actor', 'card'], (g) => ({ type, params: { actor: g.actor!, card: g.card! } }))];
    case 'comment':
      return [
        use('comment', ['actor', 'card', 'excerpt'], (g) => ({
          type,
          params: { actor: g.actor!, card: g.card!, excerpt: g.excerpt! },
        })),
      ];
    case 'mention':
      // Made after notifications kept their parameters: never stored as a sentence alone.
      return [];
    case 'card_due':
      // The date was written out for people: it is found among the card's known due dates, or the row keeps its text.
      return [
        use('cardDue', ['card', 'board', 'when'], (g, due, lang) => {
          const at = due.find((d) => formatDate(d, lang) === g.when);
          return at ? { type, params: { card: g.card!, board: g.board!, due: at } } : null;
        }),
      ];
    case 'invitation':
      return [use('invitation', ['actor', 'board'], (g) => ({ type, params: { actor: g.actor!, board: g.board! } }))];
    case 'webhook_disabled':
      return [
        use('webhookDisabled', ['url', 'board', 'failures'], (g) => {
          const failures = Number(g.failures);
          return /^\d+$/.test(g.failures!) ? { type, params: { url: g.url!, board: g.board!, failures } } : null;
        }),
      ];
  }
}

/**
 * The type and parameters a stored sentence was written from, trying every
 * language; null when no template reproduces it exactly. `due` lists the
 * instants a `card_due` sentence may have named.
 */
export function parseNotification(type: NotificationType, message: string, due: string[] = []): NotificationData | null {
  for (const language of LANGUAGES) {
    for (const { pattern: p, read } of candidates(type, language)) {
      const match = p.regex.exec(message);
      if (!match) continue;
      const groups = Object.fromEntries(p.names.map((name, i) => [name, match[i + 1]!]));
      const data = read(groups, due, language);
      if (data && renderNotification(data, language) === message) return data;
    }
  }
  return null;
}
