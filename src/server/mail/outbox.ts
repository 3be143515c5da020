import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** The names the mailer gives outbox files (mailer.ts): the time, then 8 random hex digits. */
export const OUTBOX_NAME = /^[0-9TZ-]{10,40}-[0-9a-f]{8}\.eml$/;

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  date: string;
  size: number;
}

export interface OutboxMail extends OutboxEntry {
  text: string;
}

export const outboxDir = (dataDir: string) => path.join(dataDir, 'outbox');

/** The outbox's newest mails first, at most `limit`, and how many it holds. */
export async function listOutbox(dataDir: string, limit: number): Promise<{ total: number; mails: OutboxEntry[] }> {
  let names: string[];
  try {
    names = (await readdir(outboxDir(dataDir))).filter((name) => OUTBOX_NAME.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { total: 0, mails: [] };
    throw error;
  }
  // The names start with the time they were written: sorting them sorts the mails.
  names.sort().reverse();
  const mails: OutboxEntry[] = [];
  for (const name of names.slice(0, limit)) {
    const mail = await readOutboxMail(dataDir, name);
    if (mail) mails.push({ id: mail.id, to: mail.to, subject: mail.subject, date: mail.date, size: mail.size });
  }
  return { total: names.length, mails };
}

/** One outbox mail, its plain-text part decoded; undefined when there is no such file. */
export async function readOutboxMail(dataDir: string, id: string): Promise<OutboxMail | undefined> {
  if (!OUTBOX_NAME.test(id)) return undefined;
  const file = path.join(outboxDir(dataDir), id);
  let raw: string;
  let size: number;
  try {
    [raw, size] = await Promise.all([readFile(file, 'utf8'), stat(file).then((s) => s.size)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const message = parsePart(raw);
  const date = Date.parse(message.headers.get('date') ?? '');
  return {
    id,
    to: decodeWords(message.headers.get('to') ?? ''),
    subject: decodeWords(message.headers.get('subject') ?? ''),
    date: new Date(Number.isNaN(date) ? 0 : date).toISOString(),
    size,
    text: plainText(message),
  };
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

/** Headers (unfolded, names in lower case) and the body after the blank line. */
function parsePart(raw: string): Part {
  const text = raw.replace(/\r\n/g, '\n');
  const end = text.indexOf('\n\n');
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? '' : text.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The plain-text part of a message (the first one of a multipart), decoded; else the body as it is. */
function plainText(part: Part, depth = 0): string {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary && depth < 4) {
    const pieces = part.body.split(`--${boundary}`).slice(1);
    const parts = pieces.filter((p) => !p.startsWith('--')).map((p) => parsePart(p.replace(/^\n/, '')));
    const plain = parts.find((p) => /^text\/plain/i.test(p.headers.get('content-type') ?? 'text/plain'));
    const nested = parts.find((p) => /^multipart\//i.test(p.headers.get('content-type') ?? ''));
    if (plain) return decodeBody(plain);
    if (nested) return plainText(nested, depth + 1);
    return parts[0] ? decodeBody(parts[0]) : '';
  }
  return decodeBody(part);
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const body = part.body.replace(/\n+$/, '');
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return quotedPrintable(body);
  return body;
}

function quotedPrintable(body: string): string {
  // A literal % first, so that only the =XX escapes turn into percent escapes; then the bytes decode as UTF-8.
  const escaped = body
    .replace(/%/g, '%25')
    .replace(/=\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, '%$1')
    .replace(/[^\x20-\x7e\n\t]/g, (c) => encodeURIComponent(c));
  try {
    return decodeURIComponent(escaped);
  } catch {
    return body;
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, text: string) => {
      if (kind.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      return quotedPrintable(text.replace(/_/g, ' '));
    });
}
