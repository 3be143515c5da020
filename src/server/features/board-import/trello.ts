import { runPaced } from './pacing.js';
import { Type, type Static } from 'typebox';
import type { BoardFileInput } from '../../../shared/api/board-file.schema.js';
import type { ImportReport, SkipReason } from '../../../shared/api/board-import.js';
import type { Db } from '../../db/database.js';
import { normalizeColor } from '../boards/color.js';
import { MAX_LABELS } from '../labels/labels.service.js';
import {
  FIELD_NAME_MAX_LENGTH,
  FIELD_TEXT_MAX_LENGTH,
  MAX_FIELDS,
  MAX_FIELD_OPTIONS,
  type FieldType,
} from '../../../shared/api/fields.js';
import { BOARD_FILE_FORMAT, BOARD_FILE_VERSION } from '../board-export/board-file.js';
import { namesKnownTo } from './board-import.repository.js';
import { cut, fitter, isoOrNull, LabelWords, oneLine } from './conversion.js';
import { importBounds, overBound } from './import-bounds.js';
import { steppedChecker } from './json-check.js';

/*
 * A Trello board export ("Print and export → Export as JSON") turned into a
 * board file of ours, so that it takes the one import road to the database.
 * Only the fields read here are described; Trello writes many more.
 */

const Id = Type.String({ maxLength: 255 });
const OptText = Type.Optional(Type.Union([Type.String(), Type.Null()]));
const Pos = Type.Optional(Type.Union([Type.Number(), Type.Null()]));
const OptBool = Type.Optional(Type.Union([Type.Boolean(), Type.Null()]));

export const TrelloExport = Type.Object({
  name: Type.String(),
  closed: OptBool,
  prefs: Type.Optional(
    Type.Union([Type.Object({ background: OptText, backgroundColor: OptText, backgroundImage: OptText }), Type.Null()]),
  ),
  labels: Type.Optional(Type.Array(Type.Object({ id: Id, name: OptText, color: OptText }))),
  lists: Type.Array(Type.Object({ id: Id, name: OptText, closed: OptBool, pos: Pos })),
  cards: Type.Array(
    Type.Object({
      id: Id,
      idList: Id,
      name: OptText,
      desc: OptText,
      closed: OptBool,
      pos: Pos,
      idLabels: Type.Optional(Type.Array(Id)),
      idMembers: Type.Optional(Type.Array(Id)),
      due: OptText,
      dueComplete: OptBool,
      dateLastActivity: OptText,
      attachments: Type.Optional(Type.Array(Type.Object({ name: OptText, url: OptText }))),
      customFieldItems: Type.Optional(
        Type.Array(
          Type.Object({
            idCustomField: Id,
            idValue: OptText,
            value: Type.Optional(
              Type.Union([Type.Object({ text: OptText, number: OptText, date: OptText, checked: OptText }), Type.Null()]),
            ),
          }),
        ),
      ),
    }),
  ),
  customFields: Type.Optional(
    Type.Array(
      Type.Object({
        id: Id,
        name: OptText,
        type: OptText,
        pos: Pos,
        options: Type.Optional(
          Type.Union([
            Type.Array(
              Type.Object({
                id: Id,
                value: Type.Optional(Type.Union([Type.Object({ text: OptText }), Type.Null()])),
                pos: Pos,
              }),
            ),
            Type.Null(),
          ]),
        ),
        display: Type.Optional(Type.Union([Type.Object({ cardFront: OptBool }), Type.Null()])),
      }),
    ),
  ),
  checklists: Type.Optional(
    Type.Array(
      Type.Object({
        id: Id,
        idCard: Id,
        name: OptText,
        pos: Pos,
        checkItems: Type.Optional(Type.Array(Type.Object({ name: OptText, state: OptText, pos: Pos }))),
      }),
    ),
  ),
  actions: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.String(),
        date: OptText,
        idMemberCreator: OptText,
        data: Type.Optional(Type.Unknown()),
        memberCreator: Type.Optional(
          Type.Union([Type.Object({ id: OptText, fullName: OptText, username: OptText }), Type.Null()]),
        ),
      }),
    ),
  ),
  members: Type.Optional(Type.Array(Type.Object({ id: Id, fullName: OptText, username: OptText }))),
});
export type TrelloExport = Static<typeof TrelloExport>;

/** Trello's shape: a named object with lists and cards and none of our own format's marks. */
export function looksLikeTrello(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return v.format === undefined && typeof v.name === 'string' && Array.isArray(v.lists) && Array.isArray(v.cards);
}

// The bulk of an export is in these arrays: checked item by item, with the event loop's turn in between.
const checkTrello = steppedChecker(TrelloExport, ['lists', 'cards', 'checklists', 'labels', 'actions', 'members']);

/** A parsed upload that `looksLikeTrello` as a board file, or the reason it cannot be read. */
export async function convertTrelloUpload(
  value: unknown,
  accounts: ReadonlyMap<string, string>,
  now: string,
): Promise<{ file: BoardFileInput; report: ImportReport } | { problem: string }> {
  const problem = await checkTrello(value);
  if (problem) return { problem: `The Trello export is not understood: ${problem}` };
  const trello = value as TrelloExport;
  const over = trelloOverBounds(trello);
  if (over) return { problem: over };
  return runPaced(conversion(trello, accounts, now));
}

/** The first import bound a Trello export goes past, as the answer says it; null within them all. */
function trelloOverBounds(trello: TrelloExport): string | null {
  const checklists = trello.checklists ?? [];
  let items = 0;
  for (const checklist of checklists) items += checklist.checkItems?.length ?? 0;
  let comments = 0;
  for (const action of trello.actions ?? []) if (action.type === 'commentCard') comments++;
  return overBound('The Trello export', [
    ['lists', trello.lists.length, importBounds.areas],
    ['cards', trello.cards.length, importBounds.cards],
    ['checklists', checklists.length, importBounds.checklists],
    ['checklist items', items, importBounds.checklistItems],
    ['labels', trello.labels?.length ?? 0, importBounds.labels],
    ['comments', comments, importBounds.comments],
  ]);
}

/** Trello's board background colours (the names `prefs.background` uses) → hex. */
const BACKGROUNDS = new Map(
  Object.entries({
    blue: '#0079bf',
    orange: '#d29034',
    green: '#519839',
    red: '#b04632',
    purple: '#89609e',
    pink: '#cd5a91',
    lime: '#4bbf6b',
    sky: '#00aecc',
    grey: '#838c91',
  }),
);

/** The rendered HTML beside content: written by an export, not read by an import. */
const NOT_READ = '';

const LIMITS = { name: 255, label: 64, content: 1_000_000, comment: 100_000, cardLabels: 100 } as const;

/** Trello order: by `pos`, then as written. */
function byPos<T extends { pos?: number | null }>(items: readonly T[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (a.item.pos ?? Infinity) - (b.item.pos ?? Infinity) || a.index - b.index)
    .map(({ item }) => item);
}

/** An http(s) address as a URL writes it (blanks and control characters encoded), or null. */
function webAddress(value: string | null | undefined): string | null {
  if (!value || !/^https?:\/\//i.test(value.trim())) return null;
  try {
    return new URL(value.trim()).href;
  } catch {
    return null;
  }
}

/** A link in Markdown: the text's brackets escaped, the address's parentheses and angle brackets encoded. */
function markdownLink(text: string, url: string): string {
  const label = oneLine(text).replace(/([\\[\]])/g, '\\$1') || url;
  const href = url.replace(/[()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `[${label}](${href})`;
}

/** The reasons a Trello import gives (the others are LokalBoards'). */
type TrelloSkip = Exclude<SkipReason, 'assigneeUnknown' | 'boardMembers' | 'fileMissing' | 'historyUnknown'>;

const WHY: Record<TrelloSkip, string> = {
  labelLimit: `a board holds at most ${MAX_LABELS} labels`,
  labelUnnamed: 'the label has neither a name nor a colour',
  notWebLink: 'the attachment has no web address to link to',
  noList: 'the card belongs to a list that is not in the export',
  noCard: 'it belongs to a card that is not in the export',
  cardMembers: 'people are not matched to accounts, so card members are not imported',
  backgroundImage: 'only the background colour is imported',
  history: 'the history (Trello actions other than comments) is not imported',
  tooLong: 'the text was longer than this service allows and was cut',
};

/**
 * Converts a Trello export (already checked against `TrelloExport`) into a
 * board file. `accounts` holds the lower-cased names of the people here the
 * importer can see: a comment by one of them keeps its text and takes their
 * name; a comment by anyone else names its original author in its text.
 * Lists become areas, cards cards (closed ones archived at `now`, or at the
 * card's last activity), checklists and attachments go into the card's
 * Markdown, labels are kept up to the board's limit (used ones first).
 */
export function convertTrello(
  trello: TrelloExport,
  accounts: ReadonlyMap<string, string>,
  now: string,
): { file: BoardFileInput; report: ImportReport } {
  const steps = conversion(trello, accounts, now);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** `convertTrello` as steps: it pauses (yields) after every card or comment, where an import may give the event loop its turn. */
function* conversion(
  trello: TrelloExport,
  accounts: ReadonlyMap<string, string>,
  now: string,
): Generator<void, { file: BoardFileInput; report: ImportReport }> {
  const skipped: ImportReport['skipped'] = [];
  const skip = (what: string, reason: TrelloSkip) => skipped.push({ what, reason, why: WHY[reason] });
  const fit = fitter((what) => skip(what, 'tooLong'));

  // Labels: a name, or the colour's name when unnamed; one per word, used ones first, up to the limit.
  const used = new Set(trello.cards.flatMap((c) => c.idLabels ?? []));
  const labelName = new Map<string, string>(); // Trello id → our name
  const words = new LabelWords();
  for (const label of trello.labels ?? []) {
    const raw = oneLine(label.name ?? '') || (label.color ?? '').replace(/_/g, ' ').trim();
    if (raw === '') {
      if (used.has(label.id)) skip(label.id, 'labelUnnamed');
      continue;
    }
    labelName.set(label.id, words.add(fit(raw, LIMITS.label, raw), used.has(label.id)));
  }
  const keptNames = words.keep((name) => skip(name, 'labelLimit'));
  const kept = new Set(keptNames);

  // Comments, oldest first, by card.
  const members = new Map((trello.members ?? []).map((m) => [m.id, m]));
  const comments = new Map<string, BoardFileInput['areas'][number]['cards'][number]['comments']>();
  const cardIds = new Set(trello.cards.map((c) => c.id));
  let otherActions = 0;
  let commentId = 0;
  yield;
  const actions = (trello.actions ?? [])
    .map((action, index) => {
      const date = isoOrNull(action.date) ?? now;
      return { action, index, date, time: Date.parse(date) };
    })
    // By time (a number: comparing 20,000 dates as text takes several times as long); Trello writes newest first.
    .sort((a, b) => a.time - b.time || b.index - a.index);
  yield;
  for (const { action, date } of actions) {
    yield;
    if (action.type !== 'commentCard') {
      otherActions++;
      continue;
    }
    const data = (action.data ?? {}) as { text?: unknown; card?: { id?: unknown; name?: unknown } };
    const cardId = typeof data.card?.id === 'string' ? data.card.id : null;
    const text = typeof data.text === 'string' ? data.text : '';
    if (cardId === null || !cardIds.has(cardId)) {
      skip(typeof data.card?.name === 'string' ? data.card.name : oneLine(text).slice(0, 80), 'noCard');
      continue;
    }
    const person = action.memberCreator ?? members.get(action.idMemberCreator ?? '') ?? null;
    const fullName = oneLine(person?.fullName ?? '') || oneLine(person?.username ?? '');
    const account = fullName === '' ? undefined : accounts.get(fullName.toLowerCase());
    let content = text;
    if (account === undefined) {
      const username = person?.username ? ` (@${oneLine(person.username)})` : '';
      content = `*Trello: ${fullName || '?'}${username}*\n\n${text}`;
    }
    const list = comments.get(cardId) ?? [];
    list.push({
      id: ++commentId,
      author: { id: null, name: account ?? (fullName || null) },
      content: fit(content, LIMITS.comment, `${fullName}: ${oneLine(text).slice(0, 80)}`),
      html: NOT_READ,
      createdAt: date,
    });
    comments.set(cardId, list);
  }
  if (otherActions > 0) skip(String(otherActions), 'history');

  // Checklists by card, in order.
  const checklists = new Map<string, NonNullable<TrelloExport['checklists']>>();
  for (const checklist of byPos(trello.checklists ?? [])) {
    if (!cardIds.has(checklist.idCard)) {
      skip(oneLine(checklist.name ?? ''), 'noCard');
      continue;
    }
    const list = checklists.get(checklist.idCard);
    if (list) list.push(checklist);
    else checklists.set(checklist.idCard, [checklist]);
  }

  let checklistItems = 0;
  let links = 0;
  let cardCount = 0;
  // Cards by list, indexed once: the work grows with the file, not with lists × cards.
  const listIds = new Set(trello.lists.map((l) => l.id));
  const cardsByList = new Map<string, TrelloExport['cards']>();
  for (const card of trello.cards) {
    if (!listIds.has(card.idList)) {
      skip(oneLine(card.name ?? ''), 'noList');
      continue;
    }
    const list = cardsByList.get(card.idList);
    if (list) list.push(card);
    else cardsByList.set(card.idList, [card]);
  }
  const withMembers = new Set(trello.cards.flatMap((c) => c.idMembers ?? []));
  for (const id of withMembers) {
    const m = members.get(id);
    skip(oneLine(m?.fullName ?? '') || oneLine(m?.username ?? '') || id, 'cardMembers');
  }

  const customFields = trelloFields(trello.customFields ?? []);
  const areas: BoardFileInput['areas'] = [];
  for (const [areaIndex, list] of byPos(trello.lists).entries()) {
    const cards: BoardFileInput['areas'][number]['cards'] = [];
    for (const [cardIndex, card] of byPos(cardsByList.get(list.id) ?? []).entries()) {
      yield;
      const name = cut(oneLine(card.name ?? ''), LIMITS.name) || 'Card';
      const parts: string[] = [];
      if (card.desc?.trim()) parts.push(card.desc.trimEnd());
      for (const checklist of checklists.get(card.id) ?? []) {
        const items = byPos(checklist.checkItems ?? []).map(
          (item) => `- [${item.state === 'complete' ? 'x' : ' '}] ${oneLine(item.name ?? '')}`,
        );
        checklistItems += items.length;
        parts.push([`**${oneLine(checklist.name ?? '') || '✓'}**`, '', ...items].join('\n'));
      }
      const attached: string[] = [];
      for (const attachment of card.attachments ?? []) {
        const url = webAddress(attachment.url);
        if (url === null) {
          skip(oneLine(attachment.name ?? '') || (attachment.url ?? ''), 'notWebLink');
          continue;
        }
        attached.push(`- 📎 ${markdownLink(attachment.name ?? '', url)}`);
      }
      links += attached.length;
      if (attached.length > 0) parts.push(attached.join('\n'));
      cardCount++;
      cards.push({
        id: cardCount,
        name,
        content: fit(parts.join('\n\n'), LIMITS.content, name),
        html: NOT_READ,
        done: card.dueComplete === true,
        sort: cardIndex,
        dueDate: isoOrNull(card.due),
        repeatEvery: null,
        assignees: [],
        assignee: null,
        labels: [...new Set((card.idLabels ?? []).map((id) => labelName.get(id)))]
          .filter((n): n is string => n !== undefined && kept.has(n))
          .slice(0, LIMITS.cardLabels),
        archivedAt: card.closed ? (isoOrNull(card.dateLastActivity) ?? now) : null,
        reminders: [],
        attachments: [],
        comments: comments.get(card.id) ?? [],
        activity: [],
        fields: trelloValues(card, customFields),
      });
    }
    areas.push({
      id: areaIndex + 1,
      name: cut(oneLine(list.name ?? ''), LIMITS.name),
      sort: areaIndex,
      archivedAt: list.closed ? now : null,
      cards,
    });
  }

  const prefs = trello.prefs ?? {};
  const color =
    normalizeColor(prefs.backgroundColor) ?? BACKGROUNDS.get(prefs.background ?? '') ?? normalizeColor(prefs.background);
  if (prefs.backgroundImage) skip(prefs.backgroundImage, 'backgroundImage');

  const labels = keptNames.map((name, i) => ({ id: i + 1, name }));
  const file: BoardFileInput = {
    format: BOARD_FILE_FORMAT,
    formatVersion: BOARD_FILE_VERSION,
    serviceVersion: null,
    exportedAt: now,
    board: {
      id: 1,
      name: cut(oneLine(trello.name), LIMITS.name) || 'Board',
      style: 'kanban',
      status: 'private',
      color,
      image: null,
      owner: { id: '', name: '' },
      archivedAt: null,
    },
    members: [],
    labels,
    fields: customFields.fields,
    areas,
    images: {},
  };
  const report: ImportReport = {
    source: 'trello',
    imported: {
      areas: areas.length,
      cards: cardCount,
      comments: commentId,
      labels: labels.length,
      checklistItems,
      links,
    },
    skipped,
  };
  return { file, report };
}

const TRELLO_FIELD_TYPES: Record<string, FieldType> = {
  text: 'text',
  number: 'number',
  date: 'date',
  checkbox: 'checkbox',
  list: 'select',
};

interface TrelloFields {
  fields: NonNullable<BoardFileInput['fields']>;
  /** Trello's field id → ours, with a list field's option ids → names. */
  byId: Map<string, { id: number; type: FieldType; options: Map<string, string> }>;
}

/**
 * Trello's custom fields of the kinds we have (text, number, date, checkbox,
 * list as select), in Trello's order, up to a board's 20; a name taken
 * already, or a list without options, is left out.
 */
function trelloFields(custom: NonNullable<TrelloExport['customFields']>): TrelloFields {
  const fields: TrelloFields['fields'] = [];
  const byId: TrelloFields['byId'] = new Map();
  const names = new Set<string>();
  for (const field of byPos(custom)) {
    const type = TRELLO_FIELD_TYPES[field.type ?? ''];
    const name = cut(oneLine(field.name ?? ''), FIELD_NAME_MAX_LENGTH);
    if (!type || name === '' || names.has(name.toLowerCase()) || fields.length >= MAX_FIELDS) continue;
    const options = new Map<string, string>();
    const taken = new Set<string>();
    for (const option of byPos(field.options ?? [])) {
      const label = cut(oneLine(option.value?.text ?? ''), FIELD_NAME_MAX_LENGTH);
      if (label === '' || taken.has(label.toLowerCase()) || options.size >= MAX_FIELD_OPTIONS) continue;
      taken.add(label.toLowerCase());
      options.set(option.id, label);
    }
    if (type === 'select' && options.size === 0) continue;
    names.add(name.toLowerCase());
    const id = fields.length + 1;
    fields.push({ id, name, type, options: [...options.values()], showOnCard: field.display?.cardFront === true });
    byId.set(field.id, { id, type, options });
  }
  return { fields, byId };
}

/** A Trello card's custom field values as ours; one that does not fit its field is left out. */
function trelloValues(card: TrelloExport['cards'][number], { byId }: TrelloFields): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  for (const item of card.customFieldItems ?? []) {
    const field = byId.get(item.idCustomField);
    if (!field) continue;
    const value = item.value ?? {};
    let ours: string | number | boolean | null = null;
    if (field.type === 'text' && value.text) ours = value.text.slice(0, FIELD_TEXT_MAX_LENGTH);
    else if (field.type === 'number' && value.number != null && value.number.trim() !== '') {
      const n = Number(value.number);
      ours = Number.isFinite(n) ? n : null;
    } else if (field.type === 'date') ours = isoOrNull(value.date);
    else if (field.type === 'checkbox') ours = value.checked === 'true';
    else if (field.type === 'select') ours = field.options.get(item.idValue ?? '') ?? null;
    if (ours !== null) values[field.id] = ours;
  }
  return values;
}

/**
 * The people a Trello comment author may be recognised as, by name (lower
 * case → as written here): the importer and whoever shares a board with
 * them. Only these, so that an import cannot tell whether someone else has
 * an account here.
 */
export async function peopleKnownTo(db: Db, actorId: string): Promise<Map<string, string>> {
  const names = await namesKnownTo(db, actorId);
  const people = new Map<string, string>();
  for (const name of names) if (name.trim() !== '') people.set(oneLine(name).toLowerCase(), name);
  return people;
}
