import type { Language } from '../config.js';
import { texts } from '../i18n/messages.js';
import type { Mail } from './mailer.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain-text mail and its HTML twin; lines that are links become links. */
function compose(to: string, subject: string, lines: string[]): Mail {
  const html = lines
    .map((line) =>
      /^https?:\/\//.test(line)
        ? `<p><a href="${escape(line)}">${escape(line)}</a></p>`
        : `<p>${escape(line).replace(/\n/g, '<br>')}</p>`,
    )
    .join('\n');
  return {
    to,
    subject,
    text: lines.join('\n\n') + '\n',
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2937">${html}</body></html>`,
  };
}

export function invitationMail(
  language: Language,
  to: string,
  p: { actor: string; board: string; link: string; days: number },
): Mail {
  const t = texts[language];
  return compose(to, t.inviteSubject(p), t.inviteBody(p).split('\n\n'));
}

export function digestMail(language: Language, to: string, p: { messages: string[]; total: number; link: string }): Mail {
  const t = texts[language];
  return compose(to, t.digestSubject({ count: p.total }), [
    t.digestIntro({ count: p.total }),
    p.messages.map((m) => `• ${m}`).join('\n'),
    `${t.digestOpen}:`,
    p.link,
  ]);
}

export function resetPasswordMail(language: Language, to: string, link: string): Mail {
  const t = texts[language];
  return compose(to, t.resetSubject, t.resetBody({ link }).split('\n\n'));
}

export function verifyAddressMail(language: Language, to: string, link: string, days: number): Mail {
  const t = texts[language];
  return compose(to, t.verifySubject, t.verifyBody({ link, days }).split('\n\n'));
}

export function testMail(language: Language, to: string, p: { link: string; admin: string }): Mail {
  const t = texts[language];
  return compose(to, t.testSubject, t.testBody(p).split('\n\n'));
}
