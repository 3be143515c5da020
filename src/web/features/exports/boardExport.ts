import type { Board } from '../../api/types';
import i18n from '../../app/i18n';
import { startDownload } from './download';
import { mountDownloadPanel } from './DownloadPanel';

/** Downloads a board's zip or CSV, with progress in the corner panel. */
export function exportBoard(board: Board, format: 'zip' | 'csv'): void {
  mountDownloadPanel();
  const query = new URLSearchParams({ boardId: String(board.id) });
  if (format === 'csv') query.set('format', 'csv');
  const label = i18n.t(format === 'csv' ? 'exports.board.csvLabel' : 'exports.board.zipLabel', { name: board.name });
  startDownload(`/api/data/board-export?${query.toString()}`, label, `${board.id}-board.${format}`, true);
}
