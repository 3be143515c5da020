import type { CardListItem } from '../../api/types';

export type CardMatcher = (card: CardListItem) => boolean;

interface Props {
  boardId: number;
  /** The matcher for the current filter, or null when nothing is filtered. */
  onChange: (matches: CardMatcher | null) => void;
}

/** The board filter: text, labels, assignees, due, done. */
export function BoardFilter(_props: Props) {
  return null;
}
