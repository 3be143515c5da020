import { sql } from 'kysely';
import type { BoardFilePerson } from '../../../shared/api/board-file.schema.js';
import type { Db } from '../../db/database.js';
import { dialectOf, type Cursor, type JsonFunctions } from '../../db/dialects/index.js';

/**
 * Cards read per query. A card comes with everything on it (labels, people,
 * attachments, comments, history) and leaves with its rendered HTML, so fewer
 * at a time: a batch stays at a few hundred kB.
 */
export const CARD_BATCH = 100;

interface CardJsonBase {
  id: number;
  name: string;
  content: string;
  status: number;
  sort: number;
  dueDate: string | null;
  repeatEvery: string | null;
  archivedAt: string | null;
}

/** A card as the board file's query hands it over. */
export interface FileCardJson extends CardJsonBase {
  labels: string[];
  people: BoardFilePerson[];
  reminders: number[];
  attachments: Array<{
    id: number;
    filename: string;
    filetype: string;
    filesize: number;
    storedName: string | null;
    url: string | null;
    createdAt: string;
  }>;
  comments: Array<{
    id: number;
    userId: string | null;
    authorName: string | null;
    content: string;
    createdAt: string;
    userName: string | null;
  }>;
  activity: Array<{ type: string; actorId: string | null; data: string | null; createdAt: string; name: string | null }>;
  /** Custom field values, each as stored (JSON text). */
  fields: Array<{ id: number; value: string }>;
}

/** A card as the CSV's query hands it over. */
export interface CsvCardJson extends CardJsonBase {
  labels: string[];
  people: string[];
  comments: number;
  attachments: number;
  fields: Array<{ id: number; value: string }>;
}

/**
 * Reads an area's cards in board order (sort, then id), `CARD_BATCH` at a
 * time. Each card comes as one JSON text with what hangs on it (labels,
 * people, reminders, attachments, comments, history) aggregated by the
 * database, so a batch is one round trip and its rows are plain strings
 * while they arrive; they are parsed once the batch is complete and turned
 * into output before anything else waits. (Objects held across waits survive
 * the young generation's collections and fill the old one; on PostgreSQL,
 * row objects that outlive the packets of their result even make V8
 * allocate every later row straight into the old generation.)
 *
 * Where the database keeps server-side cursors (PostgreSQL) one cursor sorts
 * the area once and hands it out batch by batch: PostgreSQL keeps `sort` out
 * of every index on purpose (moves rewrite it in place), so paging by key
 * would sort the whole area again for every batch. Elsewhere (SQLite) it
 * reads by key along the (areaId, sort) index.
 */
export class CardReader<T extends CardJsonBase> {
  private after: { sort: number; id: number } | null = null;
  private position = 0;
  private cursor: Cursor<{ id: number; sort: number; card: string }> | null | undefined;
  private done = false;

  constructor(
    private readonly db: Db,
    private readonly areaId: number,
    private readonly options: { visibleOnly?: boolean; extras: T extends FileCardJson ? 'file' : 'csv' },
  ) {}

  private query() {
    const json = dialectOf(this.db).json;
    const extras = this.options.extras === 'file' ? fileExtras(json) : csvExtras(json);
    const card = json.text(
      json.object({
        id: 'cards.id',
        name: 'cards.name',
        content: 'cards.content',
        status: 'cards.status',
        sort: 'cards.sort',
        dueDate: `cards.${q('dueDate')}`,
        repeatEvery: `cards.${q('repeatEvery')}`,
        archivedAt: `cards.${q('archivedAt')}`,
        ...extras,
      }),
    );
    return this.db
      .selectFrom('cards')
      .select(['cards.id', 'cards.sort', sql.raw<string>(card).as('card')])
      .where('cards.areaId', '=', this.areaId)
      .$if(this.options.visibleOnly === true, (qb) => qb.where('cards.archivedAt', 'is', null));
  }

  /** The next batch, or null after the last. */
  async next(): Promise<T[] | null> {
    if (this.done) return null;
    let rows: Array<{ id: number; sort: number; card: string }>;
    if (this.cursor === undefined) {
      this.cursor = dialectOf(this.db).cursor(this.db, this.query().orderBy('cards.sort').orderBy('cards.id'), CARD_BATCH);
    }
    if (this.cursor) {
      rows = await this.cursor.next();
    } else {
      const from = this.after;
      rows = await this.query()
        // `sort >= s` lets the (areaId, sort) index find where to go on; the rest skips the rows of equal sort already read.
        .$if(from !== null, (qb) =>
          qb
            .where('cards.sort', '>=', from!.sort)
            .where((eb) => eb.or([eb('cards.sort', '>', from!.sort), eb('cards.id', '>', from!.id)])),
        )
        .orderBy('cards.sort')
        .orderBy('cards.id')
        .limit(CARD_BATCH)
        .execute();
      const last = rows[rows.length - 1];
      if (last) this.after = { sort: last.sort, id: last.id };
    }
    const cards = rows.map((row) => {
      const card = JSON.parse(row.card) as T;
      // The row may live in the old generation (V8 pretenures where rows come from); pointing there, the
      // text would be kept through young collections and promoted too. Unhooked, it dies young.
      row.card = '';
      // A file says where a card stands (0, 1, 2…), not the stored key, which has gaps.
      card.sort = this.position++;
      return card;
    });
    if (rows.length < CARD_BATCH) await this.close();
    return cards.length > 0 ? cards : null;
  }

  async close(): Promise<void> {
    this.done = true;
    await this.cursor?.close();
  }
}

const q = (name: string) => `"${name}"`;

/** The card's label names, in the order they were made; both the file and the CSV carry them. */
const labelNames = (json: JsonFunctions) =>
  json.array('l.name', 'l.id', `card_labels cl JOIN labels l ON l.id = cl.${q('labelId')} WHERE cl.${q('cardId')} = cards.id`);

/** The card's custom field values (JSON text each), by field id. */
const fieldValues = (json: JsonFunctions) =>
  json.array(
    json.object({ id: `v.${q('fieldId')}`, value: 'v.value' }),
    `v.${q('fieldId')}`,
    `card_field_values v WHERE v.${q('cardId')} = cards.id`,
  );

/** The card's people with their accounts, for `json.array` ordered by `ca.id` (the order they were put on it). */
const ASSIGNEES = `card_assignees ca JOIN ${q('user')} u ON u.id = ca.${q('userId')} WHERE ca.${q('cardId')} = cards.id`;

/** Labels, people, reminders, attachments, comments and history of a card. */
function fileExtras(json: JsonFunctions): Record<string, string> {
  return {
    labels: labelNames(json),
    fields: fieldValues(json),
    people: json.array(json.object({ id: 'u.id', name: 'u.name' }), 'ca.id', ASSIGNEES),
    reminders: json.array(
      `r.${q('minutesBefore')}`,
      `r.${q('minutesBefore')}`,
      `card_reminders r WHERE r.${q('cardId')} = cards.id`,
    ),
    attachments: json.array(
      json.object({
        id: 'a.id',
        filename: 'a.filename',
        filetype: 'a.filetype',
        filesize: 'a.filesize',
        storedName: `a.${q('storedName')}`,
        url: 'a.url',
        createdAt: `a.${q('createdAt')}`,
      }),
      'a.id',
      `attachments a WHERE a.${q('cardId')} = cards.id`,
    ),
    comments: json.array(
      json.object({
        id: 'm.id',
        userId: `m.${q('userId')}`,
        authorName: `m.${q('authorName')}`,
        content: 'm.content',
        createdAt: `m.${q('createdAt')}`,
        userName: 'u.name',
      }),
      'm.id',
      `comments m LEFT JOIN ${q('user')} u ON u.id = m.${q('userId')} WHERE m.${q('cardId')} = cards.id`,
    ),
    activity: json.array(
      json.object({
        type: 'e.type',
        actorId: `e.${q('actorId')}`,
        data: 'e.data',
        createdAt: `e.${q('createdAt')}`,
        name: 'u.name',
      }),
      'e.id',
      `card_activity e LEFT JOIN ${q('user')} u ON u.id = e.${q('actorId')} WHERE e.${q('cardId')} = cards.id`,
    ),
  };
}

/** What a CSV row needs beyond the card: label and people names, and how many comments and attachments. */
function csvExtras(json: JsonFunctions): Record<string, string> {
  return {
    labels: labelNames(json),
    fields: fieldValues(json),
    people: json.array('u.name', 'ca.id', ASSIGNEES),
    comments: `(SELECT count(*) FROM comments m WHERE m.${q('cardId')} = cards.id)`,
    attachments: `(SELECT count(*) FROM attachments a WHERE a.${q('cardId')} = cards.id)`,
  };
}
