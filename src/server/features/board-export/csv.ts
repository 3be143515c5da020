import { mentionsAsText } from '../../../shared/mentions.js';
import type { Writable } from 'node:stream';
import { stringify, type Stringifier } from 'csv-stringify';
import { checklistOf } from '../../../shared/checklist.js';
import type { Language } from '../../config.js';
import type { Db } from '../../db/database.js';
import { toIso } from '../../db/dialect.js';
import type { BoardRow } from '../../db/schema.js';
import { CardReader, type CsvCardJson } from './card-reader.repository.js';
import { csvSeparator, csvWords, type CsvWords } from './csv-words.js';
import { visibleAreasInOrder } from './board-export.repository.js';
import type { Field, FieldValue } from '../../../shared/api/fields.js';
import { boardFields } from '../fields/fields.service.js';

/**
 * The CSV stream of a board export: UTF-8 with a byte-order mark, `,` for
 * English and `;` otherwise, CRLF after every row (the last one too), RFC 4180
 * quoting (a cell holding the separator, a quote, CR or LF is quoted, inner
 * quotes doubled).
 */
export function csvStream(language: Language): Stringifier {
  return stringify({
    delimiter: csvSeparator(language),
    record_delimiter: '\r\n',
    // Quote a cell holding a lone LF or CR too, not only one holding CRLF.
    quote_record_delimiter: true,
    bom: true,
    eof: true,
    quote: '"',
  });
}

/** A cell a spreadsheet would run as a formula (or read oddly) starts with `'` instead. */
export function guardCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** `YYYY-MM-DD HH:MM` in UTC. */
export function csvDate(value: Date | string | null): string {
  const iso = toIso(value);
  return iso === null ? '' : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** A custom field value as a cell: a ticked checkbox as ✓, an unticked one empty. */
export function fieldCell(value: FieldValue | undefined): string {
  if (value === undefined || value === false) return '';
  if (value === true) return '✓';
  return String(value);
}

/**
 * Writes one row per visible card (areas and cards not archived), in board
 * order, read `CARD_BATCH` cards at a time: Area, Card, Status, Due date, Repeat,
 * Assigned to, Labels, Checklist, Comments, Attachments, Description, Link,
 * then one column per custom field (headed by its name, in the board's order).
 */
export async function writeBoardCsv(
  db: Db,
  board: BoardRow,
  options: { language: Language; baseUrl: string },
  out: Stringifier,
): Promise<void> {
  const words = csvWords[options.language];
  const fields = await boardFields(db, board.id);
  out.write([...words.headings, ...fields.map((f) => guardCell(f.name))]);
  const areas = await visibleAreasInOrder(db, board.id);
  for (const area of areas) {
    const reader = new CardReader<CsvCardJson>(db, area.id, { visibleOnly: true, extras: 'csv' });
    try {
      // Each batch is written whole, then let go; only then does the writer wait for the reader.
      while (await writeNextRows(reader, { area, board, words, fields, baseUrl: options.baseUrl }, out)) await drained(out);
    } finally {
      await reader.close();
    }
  }
  out.end();
}

/** Writes the rows of the area's next batch of cards; false after the last. */
async function writeNextRows(
  reader: CardReader<CsvCardJson>,
  context: { area: { name: string }; board: BoardRow; words: CsvWords; fields: Field[]; baseUrl: string },
  out: Writable,
): Promise<boolean> {
  const rows = await reader.next();
  if (rows === null) return false;
  if (out.destroyed) throw new Error('The CSV stream was closed');
  const { area, board, words, fields, baseUrl } = context;
  for (const card of rows) {
    const values = new Map(card.fields.map((f) => [f.id, JSON.parse(f.value) as FieldValue]));
    const checklist = checklistOf(card.content);
    const repeat = card.repeatEvery as keyof CsvWords['repeat'] | null;
    const cells = [
      area.name,
      card.name,
      card.status === 1 ? words.done : words.open,
      csvDate(card.dueDate),
      repeat && repeat in words.repeat ? words.repeat[repeat] : '',
      card.people.join(', '),
      card.labels.join(', '),
      checklist.total > 0 ? words.checklist(checklist.done, checklist.total) : '',
      String(card.comments),
      String(card.attachments),
      mentionsAsText(card.content),
      `${baseUrl}/board/${board.id}?card=${card.id}`,
    ];
    // A number is written as it is: `-1.5` is no formula.
    const own = fields.map((f) =>
      (f.type === 'number' ? fieldCell : (v?: FieldValue) => guardCell(fieldCell(v)))(values.get(f.id)),
    );
    out.write([...cells.map(guardCell), ...own]);
  }
  return true;
}

/** Waits while the reader is behind; rejects if the stream was closed. */
async function drained(out: Writable): Promise<void> {
  if (out.destroyed) throw new Error('The CSV stream was closed');
  if (!out.writableNeedDrain) return;
  await new Promise<void>((resolve, reject) => {
    const finish = (error?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => finish();
    const onClose = () => finish(new Error('The CSV stream was closed'));
    out.once('drain', onDrain);
    out.once('close', onClose);
  });
}
