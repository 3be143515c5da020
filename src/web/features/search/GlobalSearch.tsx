import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { SearchHit } from '../../../shared/api/search.js';
import { api } from '../../api/client';
import { Icon } from '../../components/Icon';
import { highlight, queryTerms } from './highlight';
import './search.css';

type Status = 'idle' | 'loading' | 'done' | 'error';

const DEBOUNCE_MS = 150;

/** True when a key press lands where it types text (so `/` is a character there, not a shortcut). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

/** The search field in the header: results as you type, keyboard navigable. */
export function GlobalSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useId();
  const listId = `${id}-list`;
  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [status, setStatus] = useState<Status>('idle');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** On a narrow screen the field hides behind an icon button until asked for. */
  const [expanded, setExpanded] = useState(false);
  /** The words the current hits answer (highlighted in them). */
  const [answered, setAnswered] = useState('');

  const hasTerms = queryTerms(query).length > 0;

  /** The field's new text; without a word to look for, the last results go at once. */
  const changeQuery = useCallback((next: string) => {
    setQuery(next);
    if (queryTerms(next).length > 0) return;
    setHits([]);
    setStatus('idle');
    setActive(-1);
  }, []);

  // Results as you type: a short pause, and the previous request is abandoned.
  useEffect(() => {
    if (!hasTerms) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setStatus('loading');
      api<{ cards: SearchHit[] }>('/api/data/search', { query: { q: query.trim() }, signal: controller.signal }).then(
        ({ cards }) => {
          setHits(cards);
          setAnswered(query);
          setActive(-1);
          setStatus('done');
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          console.warn('search failed', error);
          setHits([]);
          setStatus('error');
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, hasTerms]);

  // `/` anywhere outside a text field (and outside a modal dialog) jumps to the search.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      if (isTyping(event.target) || document.querySelector('[aria-modal="true"]')) return;
      event.preventDefault();
      setExpanded(true);
      requestAnimationFrame(() => inputRef.current?.focus());
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // A click anywhere else closes the list.
  useEffect(() => {
    if (!open && !expanded) return;
    const onDown = (event: MouseEvent) => {
      if (rootRef.current?.contains(event.target as Node)) return;
      setOpen(false);
      if (!inputRef.current?.value) setExpanded(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, expanded]);

  const reset = useCallback(() => {
    changeQuery('');
    setOpen(false);
    setActive(-1);
    setExpanded(false);
  }, [changeQuery]);

  /** On a phone, closing the field gives the focus back to the button that opened it. */
  const collapse = () => {
    reset();
    requestAnimationFrame(() => {
      if (toggleRef.current?.offsetParent) toggleRef.current.focus();
    });
  };

  const choose = (hit: SearchHit) => {
    reset();
    inputRef.current?.blur();
    void navigate(`/board/${hit.boardId}?card=${hit.id}`);
  };

  const showList = open && hasTerms && status !== 'idle';
  const listed = showList ? hits : [];

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    const count = listed.length;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) setOpen(true);
        if (count > 0) setActive((i) => (i + 1) % count);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) setOpen(true);
        if (count > 0) setActive((i) => (i <= 0 ? count - 1 : i - 1));
        break;
      case 'Enter': {
        const hit = active >= 0 ? listed[active] : listed.length === 1 ? listed[0] : undefined;
        if (showList && hit) {
          event.preventDefault();
          choose(hit);
        }
        break;
      }
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        if (showList) {
          setOpen(false);
          setActive(-1);
        } else if (query) {
          changeQuery('');
        } else if (expanded) {
          collapse();
        }
        break;
    }
  };

  // Kept in view when the arrow keys walk past the visible part.
  useEffect(() => {
    if (active < 0) return;
    document.getElementById(`${id}-option-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, id]);

  let announcement = '';
  if (hasTerms && status === 'loading') announcement = t('search.searching');
  else if (hasTerms && status === 'error') announcement = t('search.failed');
  else if (hasTerms && status === 'done')
    announcement = hits.length === 0 ? t('search.noResults') : t('search.results', { count: hits.length });

  return (
    <div ref={rootRef} className={`search${expanded ? ' expanded' : ''}`}>
      <button
        ref={toggleRef}
        type="button"
        className="icon-btn search-toggle"
        aria-label={t('search.open')}
        aria-expanded={expanded}
        onClick={() => {
          setExpanded(true);
          requestAnimationFrame(() => inputRef.current?.focus());
        }}
      >
        <Icon name="search" />
      </button>
      <div className="search-field">
        <Icon name="search" size={16} className="search-icon" />
        <input
          ref={inputRef}
          type="text"
          className="input search-input"
          role="combobox"
          aria-label={t('search.label')}
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && active >= 0 ? `${id}-option-${active}` : undefined}
          aria-keyshortcuts="/"
          placeholder={t('search.placeholder')}
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          value={query}
          onChange={(event) => {
            changeQuery(event.target.value);
            setOpen(true);
          }}
          onFocus={() => {
            if (hasTerms) setOpen(true);
          }}
          onBlur={(event) => {
            if (rootRef.current?.contains(event.relatedTarget)) return;
            setOpen(false);
            if (!event.target.value) setExpanded(false);
          }}
          onKeyDown={onKeyDown}
        />
        {status === 'loading' && hasTerms && <span className="spinner search-spinner" aria-hidden="true" />}
        {!query && (
          <kbd className="search-kbd" aria-hidden="true">
            /
          </kbd>
        )}
        <button type="button" className="icon-btn search-close" aria-label={t('search.close')} onClick={collapse}>
          <Icon name="close" size={16} />
        </button>
        <div className="search-popup" hidden={!showList}>
          <ul
            id={listId}
            role="listbox"
            aria-label={t('search.resultsLabel')}
            className="search-list"
            hidden={listed.length === 0}
          >
            {listed.map((hit, index) => (
              <li
                key={hit.id}
                id={`${id}-option-${index}`}
                role="option"
                aria-selected={index === active}
                className={`search-option${index === active ? ' active' : ''}`}
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => {
                  if (active !== index) setActive(index);
                }}
                onClick={() => choose(hit)}
              >
                <span className="search-option-name">{highlight(hit.name, answered)}</span>
                <span className="search-option-where">{t('search.where', { board: hit.boardName, area: hit.areaName })}</span>
              </li>
            ))}
          </ul>
          {listed.length === 0 && (
            <p className="search-message">
              {status === 'loading' ? t('search.searching') : status === 'error' ? t('search.failed') : t('search.noResults')}
            </p>
          )}
        </div>
      </div>
      <div className="visually-hidden" role="status" aria-live="polite">
        {open ? announcement : ''}
      </div>
    </div>
  );
}
