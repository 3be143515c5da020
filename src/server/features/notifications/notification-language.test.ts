import { expect, it } from 'vitest';
import { seedBoard } from '../../../../test/factories.js';
import { BASE_URL, eachDialect, sessionCookie, type TestContext, type TestUser } from '../../../../test/harness.js';
import { Viewer } from '../../../../test/realtime-client.js';
import { catchMail, mailTo, readable } from '../../../../test/smtp.js';
import { sendDigests } from './digest.js';

const smtp = await catchMail();

const setLanguage = async (t: TestContext, user: { cookie: string }, language: string) => {
  const res = await t.inject(
    { cookie: user.cookie },
    { method: 'POST', url: '/api/auth/update-user', headers: { origin: BASE_URL }, payload: { language } },
  );
  expect(res.statusCode).toBe(200);
};

const messages = async (t: TestContext, user: TestUser, headers: Record<string, string> = {}) => {
  const res = await t.inject(user, { method: 'GET', url: '/api/data/notifications', headers });
  expect(res.statusCode).toBe(200);
  return (res.json().notifications as Array<{ message: string }>).map((n) => n.message);
};

const invite = (t: TestContext, owner: TestUser, boardId: number, user: TestUser) =>
  t.inject(owner, { method: 'POST', url: '/api/data/invite', payload: { boardId, userId: user.id, permission: 'edit' } });

eachDialect(
  'notifications in the reader’s language, English instance',
  (t) => {
    it('a German account reads German notifications in the list, live and in its digest mail; an English one English', async () => {
      const owner = await t.signUp('Olivia');
      const greta = await t.signUp('Greta');
      const eric = await t.signUp('Eric');
      await setLanguage(t, greta, 'de');
      const live = await Viewer.connect(await t.listen(), { cookie: greta.cookie });
      const { board, areas } = await seedBoard(t, owner, { Beete: [] }, { name: 'Garten' });
      await invite(t, owner, board.id, greta);
      await invite(t, owner, board.id, eric);
      expect((await live.next('notification')).notification).toMatchObject({
        type: 'invitation',
        message: 'Olivia hat das Board “Garten” mit dir geteilt',
      });
      await t.inject(owner, { method: 'POST', url: '/api/data/card', payload: { areaId: areas.Beete!.id, name: 'Tomaten' } });
      expect((await live.next('notification')).notification).toMatchObject({
        type: 'card_created',
        message: 'Olivia hat die Karte “Tomaten” auf “Garten” erstellt',
      });
      live.close();

      // The account's language wins over what the request asks for.
      expect(await messages(t, greta, { 'accept-language': 'fr' })).toEqual([
        'Olivia hat die Karte “Tomaten” auf “Garten” erstellt',
        'Olivia hat das Board “Garten” mit dir geteilt',
      ]);
      expect(await messages(t, eric)).toEqual([
        'Olivia created the card “Tomaten” on “Garten”',
        'Olivia shared the board “Garten” with you',
      ]);

      // The sign-up mails go first, so that what follows is the digest.
      await t.app.jobs.runDue();
      const now = new Date(Date.now() + 60_000);
      t.setTime(now);
      try {
        await sendDigests(t.app.deps, now);
        await t.app.jobs.runDue();
      } finally {
        t.setTime(null);
      }
      const digestTo = (user: TestUser) => mailTo(smtp, user.email, (m) => m.includes('• Olivia'));
      const german = await digestTo(greta);
      expect(german).toContain('Subject: 2 ungelesene Benachrichtigungen');
      expect(german).toContain('Du hast 2 ungelesene Benachrichtigungen:');
      expect(german).toContain(
        '• Olivia hat die Karte “Tomaten” auf “Garten” erstellt\n• Olivia hat das Board “Garten” mit dir geteilt',
      );
      expect(german).not.toContain('created the card');
      const english = await digestTo(eric);
      expect(english).toContain('Subject: 2 unread notifications');
      expect(english).toContain('• Olivia created the card “Tomaten” on “Garten”');
    });

    it('without an account language answers in the language Accept-Language prefers, else the instance’s', async () => {
      const owner = await t.signUp('Olivia');
      const reader = await t.signUp('Rafa');
      const { board } = await seedBoard(t, owner, { A: [] }, { name: 'Garten' });
      await invite(t, owner, board.id, reader);
      const asked = async (header?: string) => (await messages(t, reader, header ? { 'accept-language': header } : {}))[0];
      expect(await asked('fr-CH, fr;q=0.9, en;q=0.8')).toBe('Olivia a partagé le tableau “Garten” avec vous');
      // Languages we do not speak are passed over; the weights decide, not the order.
      expect(await asked('ja, de;q=0.5')).toBe('Olivia hat das Board “Garten” mit dir geteilt');
      expect(await asked('pt;q=0.2, uk;q=0.9')).toBe('Olivia поділився(лася) з вами дошкою “Garten”');
      expect(await asked('de;q=0, ja')).toBe('Olivia shared the board “Garten” with you');
      expect(await asked()).toBe('Olivia shared the board “Garten” with you');
      await setLanguage(t, reader, 'it');
      expect(await asked('fr')).toBe('Olivia ha condiviso con te la bacheca “Garten”');
    });
  },
  { env: { LANGUAGE: 'en', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } },
);

eachDialect(
  'notifications in the reader’s language, Dutch instance',
  (t) => {
    it('answers in the instance language when neither the account nor the request names one', async () => {
      const owner = await t.signUp('Olivia');
      const reader = await t.signUp('Rafa');
      const { board } = await seedBoard(t, owner, { A: [] }, { name: 'Tuin' });
      await invite(t, owner, board.id, reader);
      expect(await messages(t, reader)).toEqual(['Olivia heeft het bord “Tuin” met je gedeeld']);
      expect(await messages(t, reader, { 'accept-language': 'es' })).toEqual(['Olivia compartió el tablero “Tuin” contigo']);
    });
  },
  { env: { LANGUAGE: 'nl' } },
);

eachDialect(
  'account mails in the reader’s language, English instance',
  (t) => {
    // One SMTP listener serves both databases' runs: each uses its own addresses.
    const address = (name: string) => `${name}.${t.dialect}@example.test`;
    const signUp = async (name: string, fields: { language?: string } = {}, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin: BASE_URL, ...headers },
        payload: { name, email: address(name), password: 'correct horse battery', ...fields },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { id: res.json().user.id as string, cookie: sessionCookie(res) };
    };
    let client = 0;
    const askReset = async (name: string, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        // Each from its own address: better-auth allows an address few resets a minute.
        remoteAddress: `192.0.2.${++client}`,
        method: 'POST',
        url: '/api/auth/request-password-reset',
        headers: { origin: BASE_URL, ...headers },
        payload: { email: address(name), redirectTo: '/reset-password' },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // better-auth may queue the mail after answering: the due jobs run until it is there.
    const sent = (name: string, subject: string) =>
      mailTo(
        smtp,
        address(name),
        (m) => m.includes(`Subject: ${subject}`),
        () => t.app.jobs.runDue(),
      );

    it('a German account is sent its address confirmation and password reset in German, whatever the request asks for', async () => {
      // The instance's first account counts as confirmed and gets no confirmation mail: someone else is first.
      await signUp('first');
      await signUp('greta', { language: 'de' }, { 'accept-language': 'en' });
      expect(await sent('greta', 'Bestätige deine E-Mail-Adresse')).toContain('Bitte bestätige, dass diese Adresse dir gehört');
      await askReset('greta', { 'accept-language': 'fr' });
      expect(await sent('greta', 'Passwort zurücksetzen')).toContain('Jemand möchte das Passwort deines Kontos zurücksetzen');

      // The language chosen after signing up counts for the next mail.
      const hanna = await signUp('hanna');
      await sent('hanna', 'Confirm your e-mail address');
      await setLanguage(t, hanna, 'de');
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/auth/send-verification-email',
        headers: { origin: BASE_URL, cookie: hanna.cookie },
        payload: { email: address('hanna'), callbackURL: '/' },
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(await sent('hanna', 'Bestätige deine E-Mail-Adresse')).toContain('Bitte bestätige');
      await askReset('hanna');
      expect(await sent('hanna', 'Passwort zurücksetzen')).toContain('Jemand möchte');

      const toGreta = smtp.received.map(readable).filter((m) => m.includes(`To: ${address('greta')}`));
      expect(toGreta).toHaveLength(2);
      expect(toGreta.join('\n')).not.toMatch(/Confirm your|Reset your|Confirmez|Réinitialiser/);
    });

    it('without an account language the mail speaks what the request asks for, else the instance’s language', async () => {
      await signUp('pierre', {}, { 'accept-language': 'fr-CH, de;q=0.5' });
      expect(await sent('pierre', 'Confirmez votre adresse e-mail')).toContain('Veuillez confirmer');
      await askReset('pierre', { 'accept-language': 'de' });
      expect(await sent('pierre', 'Passwort zurücksetzen')).toContain('Jemand möchte');
      await signUp('eric');
      expect(await sent('eric', 'Confirm your e-mail address')).toContain('Please confirm');
      await askReset('eric');
      expect(await sent('eric', 'Reset your password')).toContain('reset');
    });
  },
  { env: { LANGUAGE: 'en', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } },
);
