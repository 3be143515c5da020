import { readFile } from 'node:fs/promises';
import sjson from 'secure-json-parse';
import { BoardFile, type BoardFileInput } from '../../../shared/api/board-file.schema.js';
import type { ImportReport } from '../../../shared/api/board-import.js';
import { withNul } from '../../http/validation.js';
import { BOARD_FILE_FORMAT, BOARD_FILE_VERSION } from '../board-export/board-file.js';
import { BadZip } from '../../zip/reader.js';
import { boardFileOverBounds } from './import-bounds.js';
import { steppedChecker } from './json-check.js';
import { parseInSteps } from './json-in-steps.js';
import { convertLokalBoardsUpload, looksLikeLokalBoards, type Importer } from './lokalboards.js';
import { convertTrelloUpload, looksLikeTrello } from './trello.js';

// A board file's bulk is its areas: checked one by one.
const validate = steppedChecker(BoardFile, ['areas']);

/** What an upload's JSON becomes: a board file to write (with the conversion's report for a Trello export). */
export interface Prepared {
  file: BoardFileInput;
  report?: ImportReport;
}

export interface PrepareInput {
  /** The JSON: a plain upload's path (read here), or the text of the one JSON file of a zip. */
  source: { path: string } | { text: string };
  /** Whether it came out of a zip (then our board file is expected, or a Trello export). */
  fromZip: boolean;
  /** Account id → name of everyone the importer shares a board with (a Trello export's members are matched by name). */
  people: ReadonlyMap<string, string>;
  /** The importer, whom a LokalBoards file's assignee of the same name stays. */
  importer?: Importer;
  now: string;
}

/**
 * The CPU-bound half of an import: the parse, the checks and (for a Trello
 * export) the conversion. Runs in a worker thread (see prepare-worker.ts), so
 * the service's event loop only ever does the bounded writes. A file that is
 * not understood throws `BadZip` with what the answer says.
 */
export async function prepareBoardFile({ source, fromZip, people, importer, now }: PrepareInput): Promise<Prepared> {
  const what = fromZip ? 'The board file' : 'The file';
  const text = 'text' in source ? source.text : await readFile(source.path, 'utf8');
  const parsed = await parseJson(text, what);
  if (looksLikeTrello(parsed)) {
    const converted = await convertTrelloUpload(parsed, people, now);
    if ('problem' in converted) throw new BadZip(converted.problem);
    const problem = await validate(converted.file);
    if (problem) throw new BadZip(`The converted Trello board does not match the format: ${problem}`);
    return converted;
  }
  if (looksLikeLokalBoards(parsed)) {
    const converted = await convertLokalBoardsUpload(parsed, people, importer, now);
    if ('problem' in converted) throw new BadZip(converted.problem);
    const problem = await validate(converted.file);
    if (problem) throw new BadZip(`The converted LokalBoards board does not match the format: ${problem}`);
    return converted;
  }
  if (!fromZip) throw new BadZip('The file is neither a board export (zip) nor a Trello board export (JSON)');
  return { file: await checkBoardFile(parsed) };
}

/** Parsed a piece at a time (see parseInSteps). */
async function parseJson(text: string, what: string): Promise<unknown> {
  let parsed: unknown;
  try {
    parsed = await parseInSteps(text.replace(/^\uFEFF/, ''), (piece) =>
      sjson.parse(piece, undefined, { protoAction: 'remove', constructorAction: 'remove' }),
    );
  } catch {
    throw new BadZip(`${what} is not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new BadZip(`${what} is not a JSON object`);
  return parsed;
}

/** A board file of ours, checked against the format. */
async function checkBoardFile(parsed: unknown): Promise<BoardFileInput> {
  const head = parsed as { format?: unknown; formatVersion?: unknown };
  if (head.format !== BOARD_FILE_FORMAT) throw new BadZip(`The board file's format is not "${BOARD_FILE_FORMAT}"`);
  if (head.formatVersion !== BOARD_FILE_VERSION)
    throw new BadZip(`The board file's formatVersion ${JSON.stringify(head.formatVersion)} is not one this service reads (1)`);
  const problem = await validate(parsed);
  if (problem) throw new BadZip(`The board file does not match the format: ${problem}`);
  const over = boardFileOverBounds('The board file', parsed as BoardFileInput);
  if (over) throw new BadZip(over);
  const withNulAt = withNul('board file', parsed);
  if (withNulAt) throw new BadZip(`${withNulAt} must not contain the NUL character`);
  return parsed as BoardFileInput;
}
