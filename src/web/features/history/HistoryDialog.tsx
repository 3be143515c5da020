import { useId, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attempt } from '../../api/optimistic';
import type { Board } from '../../api/types';
import { toast } from '../../app/toast';
import { Dialog } from '../../components/Dialog';
import type en from '../../locales/en';
import { boardAt, boardHistory, restoreCard, type HistoryEntry } from './api';
import './history.css';

type ChangeKey = keyof (typeof en)['history']['change'];

/** The i18n key of a change, by its event name: one word for the kinds a person tells apart. */
function changeKey(name: string): ChangeKey {
  const known: Record<string, ChangeKey> = {
    'card.created': 'cardCreated',
    'card.updated': 'cardUpdated',
    'card.moved': 'cardMoved',
    'card.archived': 'cardArchived',
    'card.restored': 'cardRestored',
    'card.deleted': 'cardDeleted',
    'area.created': 'areaCreated',
    'area.updated': 'areaUpdated',
    'area.archived': 'areaArchived',
    'area.restored': 'areaRestored',
    'area.deleted': 'areaDeleted',
    'areas.reordered': 'areasReordered',
    'labels.changed': 'labelsChanged',
    'board.created': 'boardCreated',
    'comment.created': 'commentAdded',
    redacted: 'redacted',
  };
  if (known[name]) return known[name];
  if (name.startsWith('board.')) return 'boardChanged';
  if (name.startsWith('member.') || name === 'person.updated') return 'peopleChanged';
  if (name.startsWith('comment.')) return 'commentsChanged';
  if (name.startsWith('attachment.')) return 'attachmentsChanged';
  if (name.startsWith('field.')) return 'fieldsChanged';
  return 'other';
}

/**
 * The board's history: a scrubber over its changes, oldest to newest, shows
 * the board read-only as it stood after the chosen one, beside the list of
 * changes with who made them and when; a card seen in the past can be put
 * back as it was (edit rights).
 */
export function HistoryDialog({ board, writeAccess, onClose }: { board: Board; writeAccess: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const scrubberId = useId();
  const history = useQuery({ queryKey: ['board-history', board.id], queryFn: () => boardHistory(board.id) });
  // Oldest first: the scrubber runs forward in time.
  const steps = useMemo(() => [...(history.data ?? [])].reverse(), [history.data]);
  const [chosen, setChosen] = useState<number | null>(null);
  const index = chosen ?? steps.length - 1;
  const selected: HistoryEntry | undefined = steps[index];
  const past = useQuery({
    queryKey: ['board-at', board.id, selected?.version],
    queryFn: () => boardAt(board.id, selected!.version),
    enabled: selected !== undefined,
    retry: false,
  });
  const when = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }),
    [i18n.language],
  );
  const describe = (entry: HistoryEntry) =>
    t('history.entry', {
      who: entry.actor?.name ?? t('history.service'),
      what: t(`history.change.${changeKey(entry.name)}`),
      when: when.format(new Date(entry.at)),
    });

  const restore = async (cardId: number, name: string) => {
    if (!selected) return;
    const card = await attempt(() => restoreCard(cardId, selected.version));
    if (!card) return;
    toast.info(t('history.restored', { name }));
    setChosen(null);
    void qc.invalidateQueries({ queryKey: ['board-history', board.id] });
  };

  return (
    <Dialog title={t('history.title')} onClose={onClose} wide className="history-dialog">
      {history.isPending && <p className="hint">{t('history.loading')}</p>}
      {history.isError && <p role="alert">{history.error.message}</p>}
      {history.data?.length === 0 && <p className="hint">{t('history.empty')}</p>}
      {selected && (
        <>
          <div className="history-scrub">
            <label htmlFor={scrubberId}>{t('history.scrubber')}</label>
            <input
              id={scrubberId}
              type="range"
              min={0}
              max={steps.length - 1}
              value={index}
              aria-valuetext={describe(selected)}
              onChange={(e) => setChosen(Number(e.target.value))}
              data-autofocus
            />
            <output htmlFor={scrubberId} className="history-at">
              {t('history.version', { version: selected.version, when: when.format(new Date(selected.at)) })}
            </output>
          </div>
          <div className="history-body">
            <section className="history-changes" aria-labelledby={`${scrubberId}-changes`}>
              <h2 id={`${scrubberId}-changes`}>{t('history.changes')}</h2>
              <ol>
                {history.data!.map((entry) => {
                  const current = entry.version === selected.version;
                  return (
                    <li key={entry.version}>
                      <button
                        type="button"
                        className={`history-entry${current ? ' active' : ''}`}
                        aria-current={current ? 'step' : undefined}
                        onClick={() => setChosen(steps.findIndex((s) => s.version === entry.version))}
                      >
                        <span className="history-what">{describe(entry)}</span>
                        {entry.summary && <span className="history-summary">{entry.summary}</span>}
                      </button>
                    </li>
                  );
                })}
              </ol>
            </section>
            <section className="history-board" aria-labelledby={`${scrubberId}-board`} aria-busy={past.isFetching}>
              <h2 id={`${scrubberId}-board`}>{t('history.boardThen', { version: selected.version })}</h2>
              {past.isError && <p role="alert">{past.error.message}</p>}
              {past.data && (
                <div className="history-lanes">
                  {past.data.areas.map((area) => (
                    <section key={area.id} className="history-area" aria-label={area.name}>
                      <h3>{area.name}</h3>
                      <ul>
                        {area.cards.map((card) => (
                          <li key={card.id} className={`history-card${card.done ? ' done' : ''}`}>
                            <span className="history-card-name">{card.name}</span>
                            {card.labels.length > 0 && (
                              <span className="history-labels">
                                {card.labels.map((l) => (
                                  <span key={l.id} className="label-chip">
                                    {l.name}
                                  </span>
                                ))}
                              </span>
                            )}
                            {card.done && <span className="history-done">{t('history.done')}</span>}
                            {writeAccess && (
                              <button
                                type="button"
                                className="btn btn-sm"
                                aria-label={t('history.restoreNamed', { name: card.name })}
                                onClick={() => void restore(card.id, card.name)}
                              >
                                {t('history.restore')}
                              </button>
                            )}
                          </li>
                        ))}
                        {area.cards.length === 0 && <li className="hint">{t('history.noCards')}</li>}
                      </ul>
                    </section>
                  ))}
                  {past.data.areas.length === 0 && <p className="hint">{t('history.noAreas')}</p>}
                </div>
              )}
            </section>
          </div>
        </>
      )}
    </Dialog>
  );
}
