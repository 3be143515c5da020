import { SMTPServer } from 'smtp-server';
import { afterAll } from 'vitest';

export interface MailCatcher {
  /** Point SMTP_URL here: `smtp://127.0.0.1:${port}`. */
  readonly port: number;
  /** Every mail received so far, raw, in the order it arrived. */
  readonly received: string[];
}

/**
 * A real SMTP listener for a test file: the service delivers to it over the
 * network like to any mail server. Call it at the top of the file; it closes
 * after the file's tests.
 */
export async function catchMail(): Promise<MailCatcher> {
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
  return { port, received };
}

/** A mail as its reader sees it: quoted-printable and encoded-word headers decoded. */
export function readable(raw: string): string {
  const words = raw.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
  const unfolded = words.replace(/=\r?\n/g, '').replace(/\r?\n[ \t]+/g, ' ');
  // Runs of =XX are UTF-8 bytes; percent-decoding reads them as such.
  return decodeURIComponent(unfolded.replace(/%/g, '%25').replace(/=([0-9A-F]{2})/g, '%$1')).replace(/\r\n/g, '\n');
}

/**
 * The first mail (readable) to `address` that `fits`, waited for: the job
 * runner sends it over the network. `meanwhile` runs before each look (to
 * run the due jobs, say, when the mail's job may be queued late).
 */
export async function mailTo(
  smtp: MailCatcher,
  address: string,
  fits: (mail: string) => boolean = () => true,
  meanwhile?: () => Promise<unknown>,
): Promise<string> {
  for (let i = 0; i < 400; i++) {
    await meanwhile?.();
    const mail = smtp.received.map(readable).find((m) => m.includes(`To: ${address}`) && fits(m));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no such mail reached ${address}`);
}
