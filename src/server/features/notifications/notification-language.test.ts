import { afterAll, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { seedBoard } from '../../../../test/factories.js';
import { BASE_URL, eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { Viewer } from '../../../../test/realtime-client.js';
import { sendDigests } from './digest.js';

/** A real SMTP listener: the digest reaches it over the network like any mail server. */
const received: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  onData(stream, _session, done) {
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    stream.on('end', () => {
      received.push(text);
      done();
    });
  },
});
const port = await new Promise<number>((resolve) =>
  smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as { port: number }).port)),
);
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

/** A mail as its reader sees it: quoted-printable and encoded-word headers decoded. */
function readable(raw: string): string {
  const words = raw.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => `%${hex}`),
  );
  const unfolded = words.replace(/=\r?\n/g, '').replace(/\r?\n[ \t]+/g, ' ');
  // Runs of =XX are UTF-8 bytes; percent-decoding reads them as such.
  return decodeURIComponent(unfolded.replace(/%/g, '%25').replace(/=([0-9A-F]{2})/g, '%$1')).replace(/\r\n/g, '\n');
}

const setLanguage = async (t: TestContext, user: TestUser, language: string) => {
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
      const digestTo = async (user: TestUser) => {
        for (let i = 0; i < 200; i++) {
          const mail = received.map(readable).find((m) => m.includes(`To: ${user.email}`) && m.includes('• Olivia'));
          if (mail) return mail;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        throw new Error(`no digest reached ${user.email}`);
      };
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
  { env: { LANGUAGE: 'en', SMTP_URL: `smtp://127.0.0.1:${port}` } },
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
