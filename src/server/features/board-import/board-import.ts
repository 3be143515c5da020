import { open, stat } from 'node:fs/promises';
import type { Insertable } from 'kysely';
import type { Entry } from 'yauzl';
import { isSafeImage } from '../../../shared/addresses.js';
import type { BoardFileInput } from '../../../shared/api/board-file.schema.js';
import type { BoardImportResult } from '../../../shared/api/board-import.js';
import type { Actor } from '../../auth/actor.js';
import type { Db } from '../../db/database.js';
import type { AttachmentTable, CardActivityTable, CommentTable } from '../../db/schema.js';
import { nowIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { createBoardWrite, type NewBoardScope } from '../../events/board-write.js';
import { extensionOf, safeFilename, fileStore, UploadInterrupted, UploadTooLarge, type FileStore } from '../../files/store.js';
import { HttpError, badRequest } from '../../http/errors.js';
import { imageTypeOf, normalizeType } from '../attachments/attachments.service.js';
import { presentBoard } from '../../events/present-board.js';
import { deleteBoard, insertBoard, updateBoard } from '../boards/boards.repository.js';
import { normalizeColor } from '../boards/color.js';
import { MAX_LABELS } from '../labels/labels.service.js';
import { importedFields } from '../fields/imported.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import * as repo from './board-import.repository.js';
import { peopleKnownTo } from './trello.js';
import type { PrepareInput } from './prepare.js';
import { prepareInWorker } from './prepare-in-worker.js';
import { planInMemory, type BoardPlan, type FileCard, type PlacedCard, type PlanHead } from './board-plan.js';
import { pacer } from './pacing.js';
import { SORT_STEP } from '../cards/ordering.js';
import { BadZip, SafeZip, UNTRUSTED, type ZipLimits } from '../../zip/reader.js';

const MB = 1024 * 1024;

/** What an import accepts; tests may lower them. */
export const importLimits: { zip: ZipLimits; uploadBytes: number; boardFileBytes: number } = {
  zip: { ...UNTRUSTED },
  /** The largest zip upload. */
  uploadBytes: 500 * MB,
  /** The largest board file (it is read whole, and parsed: several times its size in memory). */
  boardFileBytes: 32 * MB,
};

/**
 * Recreates one board from a board export, owned by the caller: new ids; the
 * labels, areas (order, archived state), cards (order, content, done, due
 * date, reminders, repeat, labels, assignees, archived state), comments
 * (authors kept as names, dates kept), attachments, pasted pictures (their
 * addresses in descriptions, comments and the cover rewritten to the new
 * ones) and the cards' history. Nobody else gets access: the members a
 * file lists are not added (a file can name any account; the importer invites
 * whom they want), so assignees other than the importer are dropped, and
 * comments and history by anyone else keep their author as a name only,
 * never linked to an account of this instance. The files are stored first, then everything is written
 * in one transaction; if it fails, the files are removed again. A zip or
 * board file that is unsafe or not understood is refused (400) before
 * anything is written. A Trello board export (its JSON, plain or as the one
 * JSON file of a zip) is converted to a board file (see trello.ts) and then
 * takes the same road; the answer then carries the conversion's report. So
 * does a LokalBoards board file (see lokalboards.ts), its zip's files stored as ours.
 */
export async function importBoard(deps: ServiceDeps, actor: Actor, upload: string): Promise<BoardImportResult> {
  const store = fileStore(deps.config);
  const written: string[] = [];
  let zip: SafeZip | undefined;
  try {
    // A Trello export (plain JSON, or the one JSON file of a zip) is converted to a board file first.
    // The parse, the checks and the conversion run in a worker thread: the event loop that answers
    // requests gets the cards as bytes, and parses a run of them only to write it, in short steps.
    const people = await peopleKnownTo(deps.database.db, actor.id);
    let source: PrepareInput['source'];
    if (await isPlainJson(upload)) {
      if ((await stat(upload)).size > importLimits.boardFileBytes) throw tooLarge('The file');
      source = { path: upload };
    } else {
      zip = await SafeZip.open(upload, importLimits.zip);
      source = { text: await readBoardJson(zip) };
    }
    const importer = { id: actor.id, name: actor.name };
    const { plan, report } = await prepareInWorker({ source, fromZip: zip !== undefined, people, importer, now: nowIso() });
    const files = zip ? await storeFiles(zip, plan.head, store, written) : noFiles();
    const board = await writeInSteps(deps, actor, plan, files);
    return report ? { board, report } : { board };
  } catch (error) {
    await store.remove(written);
    if (error instanceof BadZip) throw badRequest(error.message);
    throw error;
  } finally {
    zip?.close();
  }
}

/** Whether an upload is JSON rather than a zip: its first character, past a byte-order mark and blanks, is `{` or `[`. */
async function isPlainJson(upload: string): Promise<boolean> {
  const handle = await open(upload, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    return /^(?:\uFEFF)?\s*[{[]/.test(buffer.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await handle.close();
  }
}

function tooLarge(what: string): HttpError {
  return new HttpError(413, `${what} is larger than the import limit (${Math.round(importLimits.boardFileBytes / MB)} MB)`);
}

/** The text of the one JSON file at the top of the zip. */
async function readBoardJson(zip: SafeZip): Promise<string> {
  const candidates = [...zip.entries.values()].filter((e) => !e.fileName.includes('/') && e.fileName.endsWith('.json'));
  if (candidates.length !== 1)
    throw new BadZip(
      candidates.length === 0 ? 'The zip holds no board file (<id>-<name>.json)' : 'The zip holds more than one board file',
    );
  const entry = candidates[0]!;
  // Refused by its declared size before a byte is read (the reader enforces the declaration).
  if (entry.uncompressedSize > importLimits.boardFileBytes) throw tooLarge('The board file');
  return zip.text(entry, importLimits.boardFileBytes);
}

export interface StoredFiles {
  /** zip path → stored file (size as stored) */
  attachments: Map<string, { storedName: string; size: number }>;
  /** zip path → picture (its new stored name and type) */
  pictures: Map<string, { storedName: string; filetype: string; size: number }>;
}

/** Copies the attachments and pictures the board file names into the upload store, before any row is written. */
async function storeFiles(zip: SafeZip, head: PlanHead, store: FileStore, written: string[]): Promise<StoredFiles> {
  const limitBytes = importLimits.zip.maxTotalBytes ?? Number.MAX_SAFE_INTEGER;
  const copy = async (entry: Entry, extension: (head: Buffer) => string | null) => {
    try {
      const saved = await store.save(await zip.stream(entry), { limitBytes, extension });
      written.push(saved.storedName);
      return saved;
    } catch (error) {
      if (error instanceof NotAPicture) return null;
      // The entry's data failed to expand to what it declared (yauzl stops it), or grew past the limit.
      if (error instanceof UploadInterrupted || error instanceof UploadTooLarge)
        throw new BadZip(
          `The zip entry ${JSON.stringify(entry.fileName)} cannot be read (${(error.cause as Error | undefined)?.message ?? error.message})`,
        );
      throw error;
    }
  };
  const attachments = new Map<string, { storedName: string; size: number }>();
  for (const attachment of head.attachmentFiles) {
    const entry = zip.entries.get(attachment.file);
    if (!entry || attachments.has(entry.fileName)) continue;
    const saved = await copy(entry, () => extensionOf(attachment.filename));
    if (saved) attachments.set(entry.fileName, { storedName: saved.storedName, size: saved.size });
  }
  const pictures = new Map<string, { storedName: string; filetype: string; size: number }>();
  for (const path of new Set(Object.values(head.file.images))) {
    const entry = path === null ? undefined : zip.entries.get(path);
    if (!entry) continue;
    // Only real pictures become pictures: the type is told by the first bytes, as on upload.
    const saved = await copy(entry, (head) => {
      const type = imageTypeOf(head);
      if (!type) throw new NotAPicture();
      return type.ext;
    });
    if (saved)
      pictures.set(entry.fileName, { storedName: saved.storedName, filetype: imageTypeOf(saved.head)!.type, size: saved.size });
  }
  return { attachments, pictures };
}

class NotAPicture extends Error {}

/** A board file that brings no files along (a Trello export, a template). */
export const noFiles = (): StoredFiles => ({ attachments: new Map(), pictures: new Map() });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

const PICTURE_ADDRESS = /^(?:https?:\/\/[^\s/]+(?:\/[^\s]*)?)?\/api\/data\/image\/[0-9a-f]{32}(?:\.[a-z0-9]{1,10})?$/i;

/**
 * Rewrites every picture address of the old board to the new picture's
 * address, in the same form (a full address gets this instance's address in
 * front, a path stays a path); longest first, so a full address is not cut
 * by its own path.
 */
function addressRewriter(file: PlanHead['file'], files: StoredFiles, baseUrl: string): (text: string) => string {
  const replacements: Array<[string, string]> = [];
  for (const [address, path] of Object.entries(file.images)) {
    // Only what an export writes there: a picture address (a stray short key would rewrite every word it matches).
    if (!PICTURE_ADDRESS.test(address)) continue;
    const picture = path === null ? undefined : files.pictures.get(path);
    if (picture)
      replacements.push([address, `${/^https?:\/\//i.test(address) ? baseUrl : ''}/api/data/image/${picture.storedName}`]);
  }
  replacements.sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    if (replacements.length === 0 || !text.includes('/api/data/image/')) return text;
    let out = text;
    for (const [from, to] of replacements) if (out.includes(from)) out = out.split(from).join(to);
    return out;
  };
}

/** A board cover: the new address of an imported picture, an outside http(s) picture, or nothing. */
function coverImage(image: string | null, rewrite: (text: string) => string, baseUrl: string): string | null {
  if (!image) return null;
  const rewritten = rewrite(image);
  if (rewritten !== image) return rewritten;
  if (image.includes('/api/data/image/')) return null; // a picture of the old board that did not come along
  return isSafeImage(image, baseUrl) ? image : null;
}

/** Runs a part of the writes of a new board, within the caller's transaction or one of its own. */
type Step = <T>(work: (db: Db) => Promise<T>) => Promise<T>;

/**
 * What one step writes at most: cards (with their comments, attachments,
 * labels…), and history entries. Where a query holds the event loop
 * (SQLite: its driver answers at once), a step runs from start to commit
 * without the loop getting a turn, so it also ends, once a run of cards is
 * written, when it has taken STEP_MS: on a loaded machine a step of 50 cards
 * took up to 45 ms, and that is what a request arriving meanwhile waited.
 * On PostgreSQL the loop is free while a step waits for the database.
 */
const CARDS_PER_STEP = 50;
const ROWS_PER_STEP = 250;
const STEP_MS = 10;

/**
 * An import's writes, each step in a short transaction of its own with the
 * event loop's turn between them, so that neither the database's connection
 * (SQLite has one) nor the process is held for the whole board. The board
 * stays archived, out of every list, until the last step brings it out and
 * records `board.created`; if any step fails, the board is deleted again
 * (everything on it goes with it).
 */
async function writeInSteps(deps: ServiceDeps, actor: Actor, plan: BoardPlan, files: StoredFiles) {
  const { db } = deps.database;
  let boardId: number | undefined;
  const step: Step = async (work) => {
    const out = await db.transaction().execute(work);
    await nextTurn();
    return out;
  };
  try {
    const id = await fillBoard(step, deps, actor, plan, files, (id) => {
      boardId = id;
    });
    // The last step brings the board out on the new board's write path (its event, an Idempotency-Key's record).
    return await createBoardWrite(deps, actor, (scope) => unveil(scope, id), {
      // An earlier attempt of the same keyed request made the board already: this attempt's copy goes.
      onReplay: () => db.transaction().execute((trx) => deleteBoard(trx, id)),
    });
  } catch (error) {
    if (boardId !== undefined) {
      const id = boardId;
      await db.transaction().execute((trx) => deleteBoard(trx, id));
    }
    throw error;
  }
}

/**
 * Writes a checked board file as a new board of the caller's, within the new
 * board's write (`createBoardWrite`): answers its row and what the caller sees
 * of it. Templates create their boards through here.
 */
export async function createBoard(scope: NewBoardScope, deps: ServiceDeps, file: BoardFileInput, files: StoredFiles) {
  const id = await fillBoard(
    (work) => work(scope.trx),
    deps,
    scope.actor,
    planInMemory(file),
    files,
    () => undefined,
  );
  return unveil(scope, id);
}

/** The filled board comes out of its archive, into its owner's list: `board.created`. */
async function unveil({ trx, emit }: Pick<NewBoardScope, 'trx' | 'emit'>, boardId: number) {
  const row = await updateBoard(trx, boardId, { archivedAt: null });
  const board = presentBoard(row);
  emit('board.created', { board });
  return { board: row, result: board };
}

async function fillBoard(
  step: Step,
  deps: ServiceDeps,
  actor: Actor,
  plan: BoardPlan,
  files: StoredFiles,
  created: (boardId: number) => void,
) {
  const now = nowIso();
  const { file } = plan.head;
  const rewrite = addressRewriter(file, files, deps.config.baseUrl);

  // The new board's only member is the importer: only they may be linked as assignee or author.
  const isImporter = (id: string | null | undefined) => id === actor.id;

  // Labels: those of the board, and any a card wears that the list missed; one per word (see planBoard).
  if (plan.head.labelNames.length > MAX_LABELS) throw badRequest(`The board file uses more than ${MAX_LABELS} labels`);
  // Custom fields; each card's values are checked as its run is written (a refusal deletes the board again).
  const fields = importedFields(plan.head.file.fields);
  const fieldIds: number[] = [];

  const color = normalizeColor(file.board.color);
  const image = coverImage(file.board.image, rewrite, deps.config.baseUrl);
  const labelIds = new Map<string, number>();
  const boardId = await step(async (trx) => {
    // Archived (out of every list) until the last step: see writeInSteps.
    const row = await insertBoard(trx, {
      ownerId: actor.id,
      name: file.board.name.trim() || 'Board',
      style: file.board.style,
      status: file.board.status,
      image,
      color: image === null ? color : null,
      archivedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    created(row.id);
    const labels = plan.head.labelNames.map((name) => ({ boardId: row.id, name, nameKey: name.toLowerCase(), createdAt: now }));
    const ids = await repo.insertLabels(trx, labels);
    labels.forEach((label, i) => labelIds.set(label.nameKey, ids[i]!));
    fieldIds.push(
      ...(await repo.insertFields(
        trx,
        fields.rows.map((f) => ({ ...f, boardId: row.id, createdAt: now })),
      )),
    );
    return row.id;
  });

  const pictures = [...files.pictures.values()].map((picture) => ({
    boardId,
    storedName: picture.storedName,
    filetype: picture.filetype,
    filesize: picture.size,
    userId: actor.id,
    createdAt: now,
  }));
  for (let i = 0; i < pictures.length; i += ROWS_PER_STEP) {
    const chunk = pictures.slice(i, i + ROWS_PER_STEP);
    await step((trx) => repo.insertImages(trx, chunk));
  }

  const areas = file.areas.map((area, areaIndex) => ({
    boardId,
    name: area.name,
    sort: areaIndex,
    archivedAt: iso(area.archivedAt),
    createdAt: now,
    updatedAt: now,
  }));
  const areaIds: number[] = [];
  for (let i = 0; i < areas.length; i += ROWS_PER_STEP) {
    const chunk = areas.slice(i, i + ROWS_PER_STEP);
    areaIds.push(...(await step((trx) => repo.insertAreas(trx, chunk))));
  }

  // The cards, run by run in the file's order (area by area), each with its area's new id and its place in it.
  const cardIds = new Map<number, number>();
  const commentIds = new Map<number, number>();
  const attachmentIds = new Map<number, number>();
  /** The new cards' ids, in the runs' order. */
  const newCardIds: number[] = [];
  const writeRun = async (trx: Db, run: PlacedCard[]) => {
    const values = run.map(({ card }) => fields.valuesOf(card.fields));
    const cardRows = run.map(({ card, areaIndex, cardIndex }) => {
      const areaId = areaIds[areaIndex]!;
      const dueDate = iso(card.dueDate);
      const rhythm = dueDate === null ? null : (card.repeatEvery ?? null);
      return {
        areaId,
        boardId,
        name: card.name.trim() || 'Card',
        content: rewrite(card.content),
        status: card.done ? 1 : 0,
        sort: cardIndex * SORT_STEP,
        dueDate,
        repeatEvery: rhythm,
        repeatAnchor: rhythm === null ? null : dueDate,
        repeatAreaId: rhythm === null ? null : areaId,
        archivedAt: iso(card.archivedAt),
        createdAt: now,
        updatedAt: now,
      };
    });
    const ids = await repo.insertCards(trx, cardRows);
    const wearing: Array<{ cardId: number; labelId: number }> = [];
    const assigned: Array<{ cardId: number; userId: string; createdAt: string }> = [];
    const reminding: Array<{ cardId: number; minutesBefore: number }> = [];
    const comments: Array<{ old: number; row: Insertable<CommentTable> }> = [];
    const attachments: Array<{ old: number; row: Insertable<AttachmentTable> }> = [];
    const valued: Array<{ cardId: number; fieldId: number; value: string }> = [];
    run.forEach(({ card }, j) => {
      const cardId = ids[j]!;
      for (const { index, value } of values[j]!) valued.push({ cardId, fieldId: fieldIds[index]!, value });
      for (const labelId of new Set(card.labels.map((n) => labelIds.get(n.trim().toLowerCase()))))
        if (labelId !== undefined) wearing.push({ cardId, labelId });
      for (const userId of new Set(card.assignees.map((p) => p.id)))
        if (isImporter(userId)) assigned.push({ cardId, userId: actor.id, createdAt: now });
      for (const minutes of [...new Set(card.reminders)].sort((x, y) => x - y))
        reminding.push({ cardId, minutesBefore: minutes });
      for (const comment of card.comments) {
        const createdAt = iso(comment.createdAt)!;
        comments.push({
          old: comment.id,
          row: {
            cardId,
            userId: isImporter(comment.author.id) ? actor.id : null,
            authorName: comment.author.name,
            content: rewrite(comment.content),
            createdAt,
            updatedAt: createdAt,
          },
        });
      }
      for (const attachment of card.attachments) {
        const stored = attachment.file === null ? undefined : files.attachments.get(attachment.file);
        const url = !stored && attachment.url && /^https?:\/\//i.test(attachment.url) ? attachment.url : null;
        attachments.push({
          old: attachment.id,
          row: {
            cardId,
            filename: safeFilename(attachment.filename),
            filetype: normalizeType(attachment.filetype),
            filesize: stored?.size ?? attachment.filesize,
            storedName: stored?.storedName ?? null,
            url,
            userId: actor.id,
            createdAt: iso(attachment.createdAt)!,
          },
        });
      }
    });
    await repo.addCardLabels(trx, wearing);
    await repo.addAssignees(trx, assigned);
    await repo.addReminders(trx, reminding);
    await repo.addFieldValues(trx, valued);
    const commentRowIds = await repo.insertComments(
      trx,
      comments.map((c) => c.row),
    );
    comments.forEach((c, k) => commentIds.set(c.old, commentRowIds[k]!));
    const attachmentRowIds = await repo.insertAttachments(
      trx,
      attachments.map((a) => a.row),
    );
    attachments.forEach((a, k) => attachmentIds.set(a.old, attachmentRowIds[k]!));
    run.forEach(({ card }, j) => cardIds.set(card.id, ids[j]!));
    newCardIds.push(...ids);
    return run.length;
  };
  const timed = deps.database.dialect.holdsLoop;
  for (let next = 0; next < plan.head.runs;) {
    await step(async (trx) => {
      const began = performance.now();
      let written = 0;
      do written += await writeRun(trx, plan.run(next++));
      while (next < plan.head.runs && written < CARDS_PER_STEP && !(timed && performance.now() - began >= STEP_MS));
    });
  }
  // The history, once every card, comment and attachment has its new id to point at.
  const remap: Record<string, Map<number, number>> = {
    attachmentId: attachmentIds,
    commentId: commentIds,
    nextId: cardIds,
    repeatedFrom: cardIds,
    duplicatedFrom: cardIds,
    // A field value's entry points at the field made from the file's field of that id.
    fieldId: new Map((plan.head.file.fields ?? []).map((f, i) => [f.id, fieldIds[i]!])),
  };
  const names = new Map(plan.head.names);
  const historyOf = (cardId: number, card: FileCard) =>
    card.activity.map((entry) => {
      let data = entry.data ?? null;
      if (isRecord(data)) {
        const copy: Record<string, unknown> = { ...data };
        for (const [key, ids] of Object.entries(remap)) {
          const old = copy[key];
          if (typeof old === 'number' && ids.has(old)) copy[key] = ids.get(old);
        }
        // Someone else assigned: their name as the file knows it, not an account id of this instance.
        if (typeof copy.assigneeId === 'string' && !isImporter(copy.assigneeId)) {
          copy.assigneeName = names.get(copy.assigneeId) ?? null;
          delete copy.assigneeId;
        }
        data = copy;
      }
      const linked = isImporter(entry.actor?.id);
      // Someone else's entry keeps their name beside what they did (`actorName`), not their account.
      if (entry.actor && !linked) data = { ...(isRecord(data) ? data : {}), actorName: entry.actor.name };
      return {
        cardId,
        actorId: linked ? actor.id : null,
        type: entry.type,
        data: data === null ? null : JSON.stringify(data),
        createdAt: iso(entry.createdAt)!,
      };
    });
  if (!plan.head.history) return boardId;
  // The runs are read again (only their history is wanted now), the loop getting its turn as they are.
  const pace = pacer();
  let activity: Array<Insertable<CardActivityTable>> = [];
  let k = 0;
  for (let i = 0; i < plan.head.runs; i++) {
    for (const { card } of plan.run(i)) activity.push(...historyOf(newCardIds[k++]!, card));
    if (activity.length >= ROWS_PER_STEP || i === plan.head.runs - 1) {
      const chunk = activity;
      activity = [];
      if (chunk.length > 0) await step((trx) => repo.insertActivity(trx, chunk));
    }
    await pace.pause();
  }

  return boardId;
}
