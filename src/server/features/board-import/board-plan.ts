import type { BoardFileInput } from '../../../shared/api/board-file.schema.js';

type Area = BoardFileInput['areas'][number];
export type FileCard = Area['cards'][number];

/** A card of the file with where it goes: its area's place in the file and its own place in that area. */
export interface PlacedCard {
  areaIndex: number;
  cardIndex: number;
  card: FileCard;
}

/**
 * What writing a board needs of its file, all but the cards: the file with
 * its areas emptied, and what the writer would otherwise have to walk every
 * card for. Small whatever the board's size (bounded by the import bounds),
 * so it can cross from the import worker as it is.
 */
export interface PlanHead {
  file: Omit<BoardFileInput, 'areas'> & { areas: Array<Omit<Area, 'cards'>> };
  /** The board's labels, then any a card wears that the list missed: one per word (trimmed, by its lower case), in order of first mention. */
  labelNames: string[];
  /** Account id → name for everyone the file names (owner, members, assignees, authors, history). */
  names: Array<[string, string]>;
  /** Each attachment that names a file of the zip: the path, and the name it had. */
  attachmentFiles: Array<{ file: string; filename: string }>;
  /** How many runs of cards follow. */
  runs: number;
  /** Whether any card has history entries (they are written once every card has its new id). */
  history: boolean;
}

/** A board file split for writing: its head, and its cards in runs, in the file's order (area by area). */
export interface BoardPlan {
  head: PlanHead;
  /** The cards of run `i` (0 ≤ i < head.runs). */
  run(i: number): PlacedCard[];
}

/**
 * Cards per run, fewer once a run holds this many rows (cards, comments,
 * attachments, history entries): a run is what a write step adds at least,
 * so it is kept to a few milliseconds of writing.
 */
const CARDS_PER_RUN = 10;
const ROWS_PER_RUN = 250;

/** Splits a checked board file into its head and its runs of cards. */
export function planBoard(file: BoardFileInput): { head: PlanHead; runs: PlacedCard[][] } {
  const runs: PlacedCard[][] = [];
  let run: PlacedCard[] = [];
  let rows = 0;
  const labels = new Map<string, string>();
  const label = (name: string) => {
    const trimmed = name.trim();
    if (trimmed !== '' && !labels.has(trimmed.toLowerCase())) labels.set(trimmed.toLowerCase(), trimmed);
  };
  for (const l of file.labels) label(l.name);
  let history = false;
  const names = new Map<string, string>();
  const name = (person: { id: string | null; name: string | null } | null | undefined) => {
    if (person?.id && person.name !== null && !names.has(person.id)) names.set(person.id, person.name);
  };
  name(file.board.owner);
  for (const member of file.members) name(member);
  const attachmentFiles: PlanHead['attachmentFiles'] = [];
  file.areas.forEach((area, areaIndex) => {
    area.cards.forEach((card, cardIndex) => {
      for (const l of card.labels) label(l);
      history ||= card.activity.length > 0;
      for (const person of card.assignees) name(person);
      for (const comment of card.comments) name(comment.author);
      for (const entry of card.activity) name(entry.actor);
      for (const a of card.attachments) if (a.file !== null) attachmentFiles.push({ file: a.file, filename: a.filename });
      run.push({ areaIndex, cardIndex, card });
      rows += 1 + card.comments.length + card.attachments.length + card.activity.length;
      if (run.length >= CARDS_PER_RUN || rows >= ROWS_PER_RUN) {
        runs.push(run);
        run = [];
        rows = 0;
      }
    });
  });
  if (run.length > 0) runs.push(run);
  const head: PlanHead = {
    file: { ...file, areas: file.areas.map(({ cards: _cards, ...area }) => area) },
    labelNames: [...labels.values()],
    names: [...names],
    attachmentFiles,
    runs: runs.length,
    history,
  };
  return { head, runs };
}

/** A plan whose runs are at hand (a template's board, made in one transaction). */
export function planInMemory(file: BoardFileInput): BoardPlan {
  const { head, runs } = planBoard(file);
  return { head, run: (i) => runs[i]! };
}
