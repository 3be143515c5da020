import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../config.js';
import { fromAcceptLanguage, readerLanguage } from './language.js';
import {
  NOTIFICATION_TYPES,
  notificationText,
  readNotification,
  renderNotification,
  type NotificationData,
} from './notifications.js';
import { parseNotification } from './parse-notification.js';

const due = '2026-05-06T07:08:00.000Z';
const samples: NotificationData[] = [
  { type: 'card_created', params: { actor: 'Ana', card: 'Fix “the” roof', board: 'Home' } },
  { type: 'card_moved', params: { actor: 'Ana', card: 'Roof', from: 'To do', to: 'Done' } },
  { type: 'card_status_changed', params: { actor: 'Ana', card: 'Roof', done: true } },
  { type: 'card_status_changed', params: { actor: 'Ana', card: 'Roof', done: false } },
  { type: 'card_assigned', params: { actor: 'Ana', card: 'Roof' } },
  { type: 'comment', params: { actor: 'Ana', card: 'Roof', excerpt: 'Looks good: ship it' } },
  { type: 'card_due', params: { card: 'Roof', board: 'Home', due } },
  { type: 'invitation', params: { actor: 'Ana', board: 'Home' } },
  { type: 'webhook_disabled', params: { url: 'https://example.test/hook', board: 'Home', failures: 5 } },
  { type: 'mention', params: { actor: 'Ana', card: 'Roof', boardId: 3, cardId: 7, commentId: 9 } },
  { type: 'mention', params: { actor: 'Ana', card: 'Roof', boardId: 3, cardId: 7 } },
];

/** Types made after notifications kept their parameters: never stored as a sentence alone, so never read back from one. */
const ONLY_AS_DATA = new Set<string>(['mention']);

describe('notification texts', () => {
  it('every type has a sample here', () => {
    expect(new Set(samples.map((s) => s.type))).toEqual(new Set(NOTIFICATION_TYPES));
  });

  for (const language of LANGUAGES) {
    it(`${language}: every type is written out with its words, and read back from its text`, () => {
      for (const data of samples) {
        const text = renderNotification(data, language);
        for (const value of Object.values(data.params)) {
          if (typeof value === 'string' && value !== due) expect(text, `${data.type} ${language}`).toContain(value);
        }
        const expected = ONLY_AS_DATA.has(data.type) ? null : data;
        expect(parseNotification(data.type, text, [due]), `${data.type} ${language}`).toEqual(expected);
        expect(readNotification(data.type, JSON.stringify(data.params)), `${data.type} ${language}`).toEqual(data);
      }
    });
  }

  it('writes a due date the reader’s way', () => {
    const data = samples.find((s) => s.type === 'card_due')!;
    expect(renderNotification(data, 'en')).toMatch(/May 6, 2026/);
    expect(renderNotification(data, 'de')).toMatch(/06\.05\.2026/);
  });

  it('shows the stored text for parameters it cannot read', () => {
    const row = { type: 'invitation', message: 'stored' };
    expect(notificationText({ ...row, params: JSON.stringify({ actor: 'Ana', board: 'Home' }) }, 'de')).toBe(
      'Ana hat das Board “Home” mit dir geteilt',
    );
    expect(notificationText({ ...row, params: JSON.stringify({ actor: 'Ana', board: 'Home' }) }, null)).toBe('stored');
    for (const params of [null, '{', '[]', '"x"', JSON.stringify({ actor: 'Ana' }), JSON.stringify({ actor: 1, board: 'b' })]) {
      expect(notificationText({ ...row, params }, 'de'), String(params)).toBe('stored');
    }
    expect(readNotification('unknown_type', '{}')).toBeNull();
    const mention = { actor: 'Ana', card: 'Roof', boardId: 3, cardId: 7 };
    expect(readNotification('mention', JSON.stringify({ ...mention, commentId: '9' }))).toBeNull();
    expect(readNotification('mention', JSON.stringify({ ...mention, cardId: undefined }))).toBeNull();
    expect(notificationText({ type: 'mention', message: 'stored', params: JSON.stringify(mention) }, 'fr')).toBe(
      'Ana vous a mentionné dans la carte “Roof”',
    );
    expect(readNotification('toString', '{}')).toBeNull();
  });
});

describe('the reader’s language', () => {
  it('prefers the account’s, then the best Accept-Language of ours, then the instance’s', () => {
    expect(readerLanguage('de', 'fr', 'en')).toBe('de');
    expect(readerLanguage('klingon', 'fr', 'en')).toBe('fr');
    expect(readerLanguage(null, undefined, 'nl')).toBe('nl');
    expect(fromAcceptLanguage('de-AT,de;q=0.9,en;q=0.8')).toBe('de');
    expect(fromAcceptLanguage('ja, pt-BR;q=0.3, cs;q=0.7')).toBe('cs');
    expect(fromAcceptLanguage('es;q=0.5, it;q=0.5')).toBe('es');
    expect(fromAcceptLanguage('*')).toBeNull();
    expect(fromAcceptLanguage('de;q=0')).toBeNull();
    expect(fromAcceptLanguage('de;q=abc, fr')).toBe('fr');
    expect(fromAcceptLanguage('')).toBeNull();
  });
});
