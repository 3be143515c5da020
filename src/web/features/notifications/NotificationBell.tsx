import { useEffect, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { boardsQuery } from '../../api/queries';
import { Avatar } from '../../components/Avatar';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { useRealtime } from '../../realtime/RealtimeProvider';
import type { Notification } from '../../../shared/api/notifications.js';
import { asNotification, markRead, notificationKeys, notificationsQuery, prependNotification } from './api';
import { formatWhen } from './time';
import './notifications.css';

/** The bell in the header: unread count and the paged list. */
export function NotificationBell() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const connection = useRealtime();
  const [open, setOpen] = useState(false);
  const { data } = useInfiniteQuery(notificationsQuery);
  const count = data?.pages[0]?.unreadCount ?? 0;

  // The server writes the texts in the reader's language: another language asks for them again.
  const language = useRef(i18n.language);
  useEffect(() => {
    if (language.current === i18n.language) return;
    language.current = i18n.language;
    void qc.invalidateQueries({ queryKey: notificationKeys.list });
  }, [i18n.language, qc]);

  useEffect(() => {
    if (!connection) return;
    return connection.onNotification((value) => {
      const notification = asNotification(value);
      if (notification) prependNotification(qc, notification);
    });
  }, [connection, qc]);

  return (
    <>
      <button
        type="button"
        className="icon-btn notif-bell"
        aria-label={t('notifications.bell', { count })}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <Icon name="bell" />
        {count > 0 && (
          <span className="notif-badge" aria-hidden="true">
            {count > 99 ? '99+' : new Intl.NumberFormat(i18n.language).format(count)}
          </span>
        )}
      </button>
      {open && <NotificationPanel onClose={() => setOpen(false)} />}
    </>
  );
}

function NotificationPanel({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const list = useInfiniteQuery(notificationsQuery);
  const owned = useQuery(boardsQuery('owned'));
  const shared = useQuery(boardsQuery('shared'));
  const scroller = useRef<HTMLDivElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  // The "load more" button is also the sentinel: when it scrolls into view the next page comes by itself.
  useEffect(() => {
    const target = more.current;
    if (!target || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { root: scroller.current, rootMargin: '120px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const boardName = (id: number | null) =>
    id === null ? undefined : [...(owned.data ?? []), ...(shared.data ?? [])].find((b) => b.id === id)?.name;

  const notifications = list.data?.pages.flatMap((page) => page.notifications) ?? [];
  const now = useNow(60_000);

  const opened = (n: Notification) => {
    if (!n.isRead) void markRead(qc, { id: n.id });
    onClose();
  };

  return (
    <Dialog title={t('notifications.title')} onClose={onClose} className="notif-panel">
      <div ref={scroller} className="notif-scroll">
        {list.isPending ? (
          <div className="center-fill">
            <span className="spinner" aria-label={t('common.loading')} />
          </div>
        ) : list.isError ? (
          <p className="form-error" role="alert">
            {t('notifications.loadFailed')}
          </p>
        ) : notifications.length === 0 ? (
          <p className="empty notif-empty">{t('notifications.empty')}</p>
        ) : (
          <ul className="notif-list">
            {notifications.map((n) => {
              const board = boardName(n.boardId);
              const to = n.boardId === null ? '/' : `/board/${n.boardId}${n.cardId === null ? '' : `?card=${n.cardId}`}`;
              const when = formatWhen(n.createdAt, now, i18n.language);
              return (
                <li key={n.id} className={`notif-item${n.isRead ? '' : ' unread'}`} data-notification-id={n.id}>
                  <Link to={to} className="notif-link" onClick={() => opened(n)}>
                    {n.actorName ? (
                      <Avatar person={{ id: n.actorName, name: n.actorName, image: n.actorImage ?? null }} />
                    ) : (
                      <span className="avatar notif-system" aria-hidden="true">
                        <Icon name="bell" size={14} />
                      </span>
                    )}
                    <span className="notif-text">
                      <span className="notif-message">{n.message}</span>
                      <span className="notif-meta">
                        {board && <span className="notif-board">{board}</span>}
                        <time dateTime={n.createdAt} title={when.full}>
                          {when.short}
                        </time>
                      </span>
                    </span>
                    {!n.isRead && (
                      <>
                        <span className="unread-dot notif-dot" aria-hidden="true" />
                        <span className="visually-hidden">{t('notifications.unread')}</span>
                      </>
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
        {hasNextPage && (
          <div className="notif-more">
            <button
              ref={more}
              type="button"
              className="btn btn-sm"
              disabled={isFetchingNextPage}
              onClick={() => void fetchNextPage()}
            >
              {isFetchingNextPage ? t('common.loading') : t('notifications.loadMore')}
            </button>
          </div>
        )}
      </div>
    </Dialog>
  );
}

/** The time now, again every `everyMs` while shown, so that "5 minutes ago" stays true. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
