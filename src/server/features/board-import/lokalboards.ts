import { createHash } from 'node:crypto';
import { Type, type Static } from 'typebox';
import type { BoardFileInput } from '../../../shared/api/board-file.schema.js';
import type { ImportReport } from '../../../shared/api/board-import.js';
import { checklistOf } from '../../../shared/checklist.js';
import { CARD_CONTENT_MAX_LENGTH, COMMENT_MAX_LENGTH } from '../../../shared/limits.js';
import type { ActivityType } from '../activity/activity.service.js';
import { BOARD_FILE_FORMAT, BOARD_FILE_VERSION } from '../board-export/board-file.js';
import { MAX_LABELS } from '../labels/labels.service.js';
import { boardFileOverBounds } from './import-bounds.js';
import { steppedChecker } from './json-check.js';
import { cut, fitter, isoOrNull, LabelWords, oneLine } from './conversion.js';
import { runPaced } from './pacing.js';

/*
 * A LokalBoards board export (`<id>-<slug>.json` in its zip, format
 * `lokalboards.board` version 1; see the LokalBoards reference, "Board
 * export") turned into a board file of ours, so that it takes the one import
 * road: the zip's attachments and pictures are then stored as for our own
 * export. Only the fields read here are described; unknown ones are allowed.
 */

export const LOKALBOARDS_FORMAT = 'lokalboards.board';

const Id = Type.Union([Type.String({ maxLength: 255 }), Type.Integer()]);
const Name = Type.Union([Type.String(), Type.Null()]);
const Person = Type.Object({ id: Type.Union([Id, Type.Null()]), name: Name });
const OptPerson = Type.Union([Person, Type.Null()]);
const DateText = Type.Union([Type.String({ maxLength: 64 }), Type.Null()]);
const Path = Type.Union([Type.String({ maxLength: 1024 }), Type.Null()]);

export const LokalBoardsFile = Type.Object({
  format: Type.Literal(LOKALBOARDS_FORMAT),
  formatVersion: Type.Literal(1),
  board: Type.Object({
    name: Type.String(),
    style: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    status: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    color: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
    image: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    owner: Type.Optional(OptPerson),
    archivedAt: Type.Optional(DateText),
  }),
  members: Type.Optional(Type.Array(Person)),
  labels: Type.Optional(Type.Array(Type.Object({ name: Type.String() }))),
  areas: Type.Array(
    Type.Object({
      name: Name,
      archivedAt: Type.Optional(DateText),
      cards: Type.Array(
        Type.Object({
          id: Type.Integer(),
          name: Name,
          content: Type.Optional(Name),
          done: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
          dueDate: Type.Optional(DateText),
          repeat: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
          assignees: Type.Optional(Type.Array(Person)),
          labels: Type.Optional(Type.Array(Type.String())),
          archivedAt: Type.Optional(DateText),
          reminders: Type.Optional(Type.Array(Type.Integer())),
          attachments: Type.Optional(
            Type.Array(
              Type.Object({
                id: Type.Integer(),
                filename: Name,
                filetype: Type.Optional(Name),
                filesize: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
                createdAt: Type.Optional(DateText),
                file: Type.Optional(Path),
                url: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
              }),
            ),
          ),
          comments: Type.Optional(
            Type.Array(
              Type.Object({
                id: Type.Integer(),
                author: OptPerson,
                content: Type.String(),
                createdAt: Type.Optional(DateText),
              }),
            ),
          ),
          activity: Type.Optional(
            Type.Array(
              Type.Object({
                type: Type.String({ maxLength: 64 }),
                actor: OptPerson,
                data: Type.Optional(Type.Unknown()),
                createdAt: Type.Optional(DateText),
              }),
            ),
          ),
        }),
      ),
    }),
  ),
  images: Type.Optional(Type.Record(Type.String({ maxLength: 2048 }), Path)),
});
export type LokalBoardsFile = Static<typeof LokalBoardsFile>;

/** A LokalBoards board file: told by its `format`, whatever else it holds. */
export function looksLikeLokalBoards(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === LOKALBOARDS_FORMAT;
}

const checkFile = steppedChecker(LokalBoardsFile, ['areas']);

/** Who imports: linked where the file names them (as assignee), by name. */
export interface Importer {
  id: string;
  name: string;
}

/** A parsed upload that `looksLikeLokalBoards` as a board file of ours, or the reason it cannot be read. */
export async function convertLokalBoardsUpload(
  value: unknown,
  people: ReadonlyMap<string, string>,
  importer: Importer | undefined,
  now: string,
): Promise<{ file: BoardFileInput; report: ImportReport } | { problem: string }> {
  const problem = await checkFile(value);
  if (problem) return { problem: `The LokalBoards board file is not understood: ${problem}` };
  const source = value as LokalBoardsFile;
  const over = boardFileOverBounds('The LokalBoards board file', source);
  if (over) return { problem: over };
  const outside = pathOutside(source);
  if (outside !== null)
    return {
      problem: `The LokalBoards board file names a file outside the zip's attachments folder: ${JSON.stringify(outside)}`,
    };
  return runPaced(conversion(source, people, importer, now));
}

/**
 * A file the board file points into the zip must lie in its `attachments/`
 * folder (the zip reader refuses entries that leave the zip; this keeps the
 * board file from naming its own JSON or anything beside it).
 */
function pathOutside(file: LokalBoardsFile): string | null {
  const inside = (p: string) => p.startsWith('attachments/') && !p.split(/[/\\]/).some((part) => part === '..' || part === '');
  for (const p of Object.values(file.images ?? {})) if (p !== null && !inside(p)) return p;
  for (const area of file.areas)
    for (const card of area.cards)
      for (const attachment of card.attachments ?? []) if (attachment.file && !inside(attachment.file)) return attachment.file;
  return null;
}

type LokalBoardsSkip = 'labelLimit' | 'assigneeUnknown' | 'boardMembers' | 'fileMissing' | 'historyUnknown' | 'tooLong';

const WHY: Record<LokalBoardsSkip, string> = {
  labelLimit: `a board holds at most ${MAX_LABELS} labels`,
  assigneeUnknown: 'nobody of that name shares a board with you here, so the assignment is not imported',
  boardMembers: 'the new board is yours alone: invite them, then assign them again',
  fileMissing: 'the export holds no file for the attachment',
  historyUnknown: 'history entries of kinds this service does not know are not imported',
  tooLong: 'the text was longer than this service allows and was cut',
};

/** The history kinds both services record with the same detail. */
const KNOWN_HISTORY = new Set<ActivityType>([
  'created',
  'moved',
  'status',
  'assigned',
  'due',
  'labels',
  'archived',
  'restored',
  'repeat',
  'repeated',
]);

/** The rendered HTML beside content: written by an export, not read by an import. */
const NOT_READ = '';

const RHYTHMS = new Set(['day', 'week', 'twoWeeks', 'month', 'year']);
const LIMITS = { name: 255, label: 64, cardLabels: 100, reminders: 20, reminderMax: 525_600, filename: 1024, filetype: 255 };

/**
 * An upload address of LokalBoards (`/api/uploads/<name>`, alone or behind
 * its instance's address), found in one pass over a text.
 */
const UPLOAD_ADDRESS = /(?:https?:\/\/[^\s/()<>"']+)?\/api\/uploads\/[A-Za-z0-9._-]+/g;

/**
 * Converts a checked LokalBoards board file into a board file of ours. Areas,
 * cards (order, Markdown content with its checklists, done, due date, repeat,
 * reminders, labels, archived state), comments (authors kept as names, never
 * linked to an account), attachments (their files come from the zip) and the
 * history of the kinds both services share. The people of another instance
 * are not accounts here: only the importer, recognised by name, stays
 * assigned; every other assignee is reported, as someone to invite
 * (`boardMembers`: they share a board with the importer) or as unknown here.
 * LokalBoards' picture addresses are replaced by addresses of the form our
 * import rewrites to the new pictures.
 */
export function convertLokalBoards(
  source: LokalBoardsFile,
  people: ReadonlyMap<string, string>,
  importer: Importer | undefined,
  now: string,
): { file: BoardFileInput; report: ImportReport } {
  const steps = conversion(source, people, importer, now);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

type Card = BoardFileInput['areas'][number]['cards'][number];

/** `convertLokalBoards` as steps: it pauses (yields) after every card, where an import may give the event loop its turn. */
function* conversion(
  source: LokalBoardsFile,
  people: ReadonlyMap<string, string>,
  importer: Importer | undefined,
  now: string,
): Generator<void, { file: BoardFileInput; report: ImportReport }> {
  const skipped: ImportReport['skipped'] = [];
  const skip = (what: string, reason: LokalBoardsSkip) => skipped.push({ what, reason, why: WHY[reason] });
  const fit = fitter((what) => skip(what, 'tooLong'));

  // People: ids of another instance never name an account here; the importer is recognised by name.
  const importerKey = importer ? oneLine(importer.name).toLowerCase() : null;
  const isImporter = (name: string | null) =>
    name !== null && importerKey !== null && oneLine(name).toLowerCase() === importerKey;
  const foreignId = (id: string | number | null) => (id === null ? '' : cut(`lokalboards:${id}`, 255));
  const personOf = (p: { id: string | number | null; name: string | null } | null) => {
    if (p === null) return null;
    if (isImporter(p.name)) return { id: importer!.id, name: importer!.name };
    return { id: foreignId(p.id), name: p.name === null ? '' : oneLine(p.name) };
  };
  const assigneeIds = new Map<string, string>(); // file id → id in our file
  // Their names by the ids given here: what an imported history entry names an assignee by.
  const namesById = new Map<string, string>();
  const remember = (p: { id: string | number | null; name: string | null } | null | undefined) => {
    if (p && p.id !== null && p.name !== null && !isImporter(p.name)) namesById.set(foreignId(p.id), oneLine(p.name));
  };
  remember(source.board.owner);
  for (const member of source.members ?? []) remember(member);
  const notAssigned = new Map<string, LokalBoardsSkip>(); // name → why

  // Pictures: each LokalBoards address → an address our import rewrites to the stored picture.
  const images: BoardFileInput['images'] = {};
  const pictureAddress = new Map<string, string>();
  for (const [address, path] of Object.entries(source.images ?? {})) {
    if (path === null) continue;
    const ours = `/api/data/image/${createHash('sha256').update(path).digest('hex').slice(0, 32)}`;
    pictureAddress.set(address, ours);
    images[ours] = path;
  }
  const rewrite = (text: string) =>
    pictureAddress.size === 0
      ? text
      : text.replace(
          UPLOAD_ADDRESS,
          (found) => pictureAddress.get(found) ?? pictureAddress.get(found.replace(/\.+$/, '')) ?? found,
        );

  // Labels: one per word, used ones first, up to the board's limit.
  const words = new LabelWords();
  const addLabel = (raw: string, used: boolean) => {
    const name = cut(oneLine(raw), LIMITS.label);
    if (name !== '') words.add(name, used);
  };
  for (const label of source.labels ?? []) addLabel(label.name, false);
  for (const area of source.areas) for (const card of area.cards) for (const label of card.labels ?? []) addLabel(label, true);
  const keptNames = words.keep((name) => skip(name, 'labelLimit'));
  const kept = new Map(keptNames.map((name) => [name.toLowerCase(), name]));

  let cardCount = 0;
  let commentCount = 0;
  let attachmentCount = 0;
  let checklistItems = 0;
  let links = 0;
  let unknownHistory = 0;
  const areas: BoardFileInput['areas'] = [];
  for (const [areaIndex, area] of source.areas.entries()) {
    const cards: Card[] = [];
    for (const [cardIndex, card] of area.cards.entries()) {
      yield;
      const name = cut(oneLine(card.name ?? ''), LIMITS.name) || 'Card';
      const content = fit(rewrite(card.content ?? ''), CARD_CONTENT_MAX_LENGTH, name);
      checklistItems += checklistOf(content).total;

      const assignees: Card['assignees'] = [];
      for (const person of card.assignees ?? []) {
        const label = oneLine(person.name ?? '') || String(person.id ?? '?');
        if (isImporter(person.name)) {
          assignees.push({ id: importer!.id, name: importer!.name });
          if (person.id !== null) assigneeIds.set(String(person.id), importer!.id);
          continue;
        }
        if (person.id !== null) assigneeIds.set(String(person.id), foreignId(person.id));
        remember(person);
        const known = person.name !== null && people.has(oneLine(person.name).toLowerCase());
        if (!notAssigned.has(label)) notAssigned.set(label, known ? 'boardMembers' : 'assigneeUnknown');
      }

      const labels = [...new Set((card.labels ?? []).map((l) => kept.get(cut(oneLine(l), LIMITS.label).toLowerCase())))]
        .filter((n): n is string => n !== undefined)
        .slice(0, LIMITS.cardLabels);

      const attachments: Card['attachments'] = [];
      for (const attachment of card.attachments ?? []) {
        const filename = cut(oneLine(attachment.filename ?? ''), LIMITS.filename) || 'file';
        const url = attachment.url && /^https?:\/\//i.test(attachment.url) ? attachment.url : undefined;
        if (!attachment.file && !url) {
          skip(filename, 'fileMissing');
          continue;
        }
        if (url) links++;
        else attachmentCount++;
        attachments.push({
          id: attachment.id,
          filename,
          filetype: cut(attachment.filetype ?? '', LIMITS.filetype),
          filesize: attachment.filesize ?? 0,
          createdAt: isoOrNull(attachment.createdAt) ?? now,
          file: url ? null : (attachment.file ?? null),
          ...(url ? { url } : {}),
        });
      }

      const comments: Card['comments'] = [];
      for (const comment of card.comments ?? []) {
        const author = comment.author === null ? null : oneLine(comment.author.name ?? '') || null;
        comments.push({
          id: comment.id,
          // A name only: a comment is never attributed to an account of this instance.
          author: { id: null, name: author },
          content: fit(
            rewrite(comment.content),
            COMMENT_MAX_LENGTH,
            `${author ?? '?'}: ${oneLine(comment.content).slice(0, 80)}`,
          ),
          html: NOT_READ,
          createdAt: isoOrNull(comment.createdAt) ?? now,
        });
      }
      commentCount += comments.length;

      const activity: Card['activity'] = [];
      for (const entry of card.activity ?? []) {
        if (!KNOWN_HISTORY.has(entry.type as ActivityType)) {
          unknownHistory++;
          continue;
        }
        const actor = personOf(entry.actor);
        activity.push({
          type: entry.type,
          actor: actor && actor.name !== '' ? actor : null,
          data: historyData(entry.data, assigneeIds, foreignId),
          createdAt: isoOrNull(entry.createdAt) ?? now,
        });
      }

      const dueDate = isoOrNull(card.dueDate);
      cardCount++;
      cards.push({
        id: card.id,
        name,
        content,
        // LokalBoards has no custom fields.
        fields: {},
        html: NOT_READ,
        done: card.done === true,
        sort: cardIndex,
        dueDate,
        repeatEvery: dueDate !== null && card.repeat && RHYTHMS.has(card.repeat) ? (card.repeat as Card['repeatEvery']) : null,
        assignees,
        assignee: assignees[0] ?? null,
        labels,
        archivedAt: isoOrNull(card.archivedAt),
        reminders: [...new Set((card.reminders ?? []).filter((m) => m >= 0 && m <= LIMITS.reminderMax))].slice(
          0,
          LIMITS.reminders,
        ),
        attachments,
        comments,
        activity,
      });
    }
    areas.push({
      id: areaIndex + 1,
      name: cut(oneLine(area.name ?? ''), LIMITS.name),
      sort: areaIndex,
      archivedAt: isoOrNull(area.archivedAt),
      cards,
    });
  }
  for (const [name, reason] of notAssigned) skip(name, reason);
  for (const member of source.members ?? []) {
    if (isImporter(member.name)) continue;
    skip(oneLine(member.name ?? '') || String(member.id ?? '?'), 'boardMembers');
  }
  if (unknownHistory > 0) skip(String(unknownHistory), 'historyUnknown');

  const board = source.board;
  // A cover uploaded there that the zip does not hold would point at nothing here.
  const rewritten = board.image ? rewrite(board.image) : null;
  const image = rewritten !== null && rewritten.includes('/api/uploads/') ? null : rewritten;
  const labels = keptNames.map((name, i) => ({ id: i + 1, name }));
  const file: BoardFileInput = {
    format: BOARD_FILE_FORMAT,
    formatVersion: BOARD_FILE_VERSION,
    serviceVersion: null,
    exportedAt: now,
    fields: [],
    board: {
      id: 1,
      name: cut(oneLine(board.name), LIMITS.name) || 'Board',
      style: board.style === 'todo' ? 'todo' : 'kanban',
      status: board.status === 'public' ? 'public' : 'private',
      color: board.color ? cut(board.color, 32) : null,
      image: image ? cut(image, 2048) : null,
      owner: { id: '', name: '' },
      archivedAt: null,
    },
    // Never added to the board (see importBoard): listed for the names the history refers to.
    members: [...namesById].map(([id, name]) => ({ id, name, permission: 'read' as const })),
    labels,
    areas,
    images,
  };
  const report: ImportReport = {
    source: 'lokalboards',
    imported: {
      areas: areas.length,
      cards: cardCount,
      comments: commentCount,
      labels: labels.length,
      checklistItems,
      links,
      attachments: attachmentCount,
    },
    skipped,
  };
  return { file, report };
}

/** A history entry's detail with LokalBoards' account ids replaced as the card's people were. */
function historyData(
  data: unknown,
  assigneeIds: ReadonlyMap<string, string>,
  foreignId: (id: string | number | null) => string,
): unknown {
  if (data === undefined) return null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const record = data as Record<string, unknown>;
  if (!('assigneeId' in record)) return data;
  const old = record.assigneeId;
  const key = typeof old === 'string' || typeof old === 'number' ? String(old) : null;
  return { ...record, assigneeId: key === null ? null : (assigneeIds.get(key) ?? foreignId(key)) };
}
