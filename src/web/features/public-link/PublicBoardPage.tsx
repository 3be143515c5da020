import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { CardListItem } from '../../api/types';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { CardTile, type CardActions } from '../board/CardTile';
import { boardBackground } from '../dashboard/BoardTile';
import type { PublicBoard } from './api';
import { usePublicBoard } from './usePublicBoard';
import '../board/board.css';
import '../../app/shell.css';
import './publiclink.css';

type PublicCard = PublicBoard['areas'][number]['cards'][number];

/** The list shape the board's tiles draw, for a card as the public view has it (nobody on it). */
function asTile(card: PublicCard, areaId: number, sort: number): CardListItem {
  return {
    ...card,
    area: areaId,
    sort,
    content: '',
    repeatEvery: null,
    assignees: [],
    assignee: null,
    assigneeName: null,
    assigneeImage: null,
    assigneeType: null,
  };
}

/**
 * `/p/:token`: a board read-only, for anyone holding the link, without an
 * account or the signed-in shell, kept live through the link's socket; once
 * the link is revoked the page says so at once.
 */
export function PublicBoardPage() {
  const { t, i18n } = useTranslation();
  const { token = '' } = useParams();
  const { board, isGone } = usePublicBoard(token);
  const [openCard, setOpenCard] = useState<PublicCard | null>(null);
  const cards = useMemo(() => new Map(board.data?.areas.flatMap((a) => a.cards.map((c) => [c.id, c] as const))), [board.data]);
  const shownFields = useMemo(() => (board.data?.fields ?? []).filter((f) => f.showOnCard), [board.data]);
  const actions = useMemo<CardActions>(
    () => ({ open: (id) => setOpenCard(cards.get(id) ?? null), move: () => undefined, toggleDone: () => undefined }),
    [cards],
  );

  if (isGone) {
    return (
      <PublicFrame>
        <div className="board-message" role="alert">
          <h1>{t('publicLink.goneTitle')}</h1>
          <p>{t('publicLink.goneText')}</p>
        </div>
      </PublicFrame>
    );
  }
  if (!board.data) {
    return (
      <PublicFrame>
        {board.isError ? (
          <div className="board-message" role="alert">
            <h1>{t('errors.loadFailed')}</h1>
            <p>{t('errors.tryAgain')}</p>
          </div>
        ) : (
          <div className="center-fill">
            <span className="spinner" aria-label={t('common.loading')} />
          </div>
        )}
      </PublicFrame>
    );
  }

  const { board: info, areas } = board.data;
  const todo = info.style === 'todo';
  return (
    <PublicFrame>
      <div className={`board ${todo ? 'board-todo' : 'board-kanban'}`}>
        <div className="board-bar">
          <span className="board-swatch" style={boardBackground(info)} aria-hidden="true" />
          <h1 className="board-title">{info.name}</h1>
          <span className="board-chip readonly" title={t('publicLink.viewHint')}>
            <Icon name="globe" size={13} />
            <span>{t('publicLink.view')}</span>
          </span>
        </div>
        <p id="card-keys-read" hidden>
          {t('board.cardKeysRead')}
        </p>
        <div className="board-canvas" data-testid="board-canvas">
          <div className="board-lanes">
            {areas.map((area) => (
              <section key={area.id} className="area" data-area-id={area.id} aria-labelledby={`area-${area.id}-name`}>
                <div className="area-header">
                  <h2 id={`area-${area.id}-name`} className="area-name">
                    {area.name}
                  </h2>
                  <span className="area-count" aria-label={t('board.cardCount', { count: area.cards.length })}>
                    {area.cards.length}
                  </span>
                </div>
                <div
                  className="area-cards"
                  role={area.cards.length ? 'list' : undefined}
                  aria-labelledby={area.cards.length ? `area-${area.id}-name` : undefined}
                >
                  {area.cards.map((card, index) => (
                    <CardTile
                      key={card.id}
                      card={asTile(card, area.id, index)}
                      writeAccess={false}
                      todo={todo}
                      viewers={undefined}
                      actions={actions}
                      language={i18n.language}
                      draggable={false}
                      unread={false}
                      shownFields={shownFields}
                    />
                  ))}
                  {area.cards.length === 0 && <p className="area-empty">{t('board.noCards')}</p>}
                </div>
              </section>
            ))}
            {areas.length === 0 && <p className="empty">{t('board.noAreas')}</p>}
          </div>
        </div>
      </div>
      {openCard && (
        <Dialog title={openCard.name} onClose={() => setOpenCard(null)} className="public-card-dialog">
          {/* Rendered by the server with raw HTML off and only safe addresses. */}
          <div className="markdown" dangerouslySetInnerHTML={{ __html: openCard.html }} />
        </Dialog>
      )}
    </PublicFrame>
  );
}

/** The page around a public board: the product's name and nothing of the signed-in shell. */
function PublicFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="shell">
      <header className="shell-header">
        <span className="shell-logo">
          <img src="/favicon.svg" alt="" width={24} height={24} />
          Tavla
        </span>
      </header>
      <main className="shell-main">{children}</main>
    </div>
  );
}
