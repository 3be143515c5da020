import { memo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isSafeImage } from '../../../shared/addresses.js';
import { archiveBoard, leaveBoard } from './api';
import type { Board } from '../../api/types';
import { ConfirmDialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { MenuButton, MenuItem, MenuSeparator } from '../../components/Menu';
import { BoardUnreadDot } from '../notifications/BoardUnreadDot';

function luminance([r, g, b]: number[]): number {
  const [lr, lg, lb] = [r!, g!, b!].map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
}

const readable = new Map<string, string>();

/**
 * A board colour (any `#rrggbb` can come through the API), darkened just
 * enough for white text to reach WCAG AA contrast (4.5:1); the hue stays.
 */
export function readableColor(hex: string): string {
  let known = readable.get(hex);
  if (known) return known;
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let factor = 1;
  // A little above 4.5, so that rounding to whole channel values cannot drop below it.
  while (factor > 0.3 && 1.05 / (luminance(rgb.map((c) => Math.round(c * factor))) + 0.05) < 4.6) factor -= 0.04;
  known = `#${rgb
    .map((c) =>
      Math.round(c * factor)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
  readable.set(hex, known);
  return known;
}

/** The background of a board's tile and header: its cover image, else its colour, else the primary colour. */
export function boardBackground(board: Pick<Board, 'image' | 'color'>): React.CSSProperties {
  // A cover stored before the server checked them could point at the API; such a board shows its colour instead.
  if (board.image && isSafeImage(board.image, window.location.origin))
    return { backgroundImage: `linear-gradient(rgb(0 0 0 / 0.35), rgb(0 0 0 / 0.55)), url("${board.image}")`, color: '#ffffff' };
  if (board.color && /^#[0-9a-f]{6}$/i.test(board.color))
    return { backgroundColor: readableColor(board.color), color: '#ffffff' };
  return { backgroundColor: 'var(--tile-default)', color: '#ffffff' };
}

interface TileProps {
  board: Board;
  owned: boolean;
  onSettings?: () => void;
  onShare?: () => void;
}

export const BoardTile = memo(function BoardTile({ board, owned, onSettings, onShare }: TileProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [confirmLeave, setConfirmLeave] = useState(false);
  const background = boardBackground(board);
  return (
    <li className="tile-item" data-board-id={board.id} style={{ color: background.color }}>
      <Link to={`/board/${board.id}`} className="tile" style={background}>
        <span className="tile-name">{board.name}</span>
        <BoardUnreadDot boardId={board.id} />
        <span className="tile-meta">
          <span>{board.style === 'todo' ? t('board.styleTodo') : t('board.styleKanban')}</span>
          {board.status === 'public' && (
            <span className="tile-mark" title={t('board.public')}>
              <Icon name="globe" size={14} />
            </span>
          )}
          {!owned && <span className="tile-shared">{t('dashboard.shared')}</span>}
        </span>
      </Link>
      <div className="tile-menu">
        <MenuButton label={t('dashboard.boardMenu', { name: board.name })} className="icon-btn tile-menu-btn">
          {(close) =>
            owned ? (
              <>
                <MenuItem
                  icon="settings"
                  onSelect={() => {
                    close();
                    onSettings?.();
                  }}
                >
                  {t('dashboard.settings')}
                </MenuItem>
                <MenuItem
                  icon="share"
                  onSelect={() => {
                    close();
                    onShare?.();
                  }}
                >
                  {t('dashboard.share')}
                </MenuItem>
                <MenuSeparator />
                <MenuItem
                  icon="archive"
                  danger
                  onSelect={() => {
                    close();
                    void archiveBoard(qc, board);
                  }}
                >
                  {t('dashboard.archive')}
                </MenuItem>
              </>
            ) : (
              <MenuItem
                icon="logout"
                danger
                onSelect={() => {
                  close();
                  setConfirmLeave(true);
                }}
              >
                {t('dashboard.leave')}
              </MenuItem>
            )
          }
        </MenuButton>
      </div>
      {confirmLeave && (
        <ConfirmDialog
          title={t('dashboard.leaveTitle', { name: board.name })}
          message={t('dashboard.leaveText')}
          confirmLabel={t('dashboard.leave')}
          danger
          onCancel={() => setConfirmLeave(false)}
          onConfirm={() => {
            setConfirmLeave(false);
            void leaveBoard(qc, board.id);
          }}
        />
      )}
    </li>
  );
});
