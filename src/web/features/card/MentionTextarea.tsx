import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject, type TextareaHTMLAttributes } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { mentionMarkup } from '../../../shared/mentions.js';
import type { MentionablePerson } from '../../../shared/api/mentions.js';
import { api } from '../../api/client';
import { Avatar } from '../../components/Avatar';

/** `@` and the name typed so far, right before the caret (at the start or after a space or bracket). */
const TYPED = /(^|[\s([{])@([^\s@[\]()]{0,40})$/u;

/** Where the mention being typed starts, and what was typed after its `@`; null when none is. */
export function mentionBeingTyped(text: string, caret: number): { start: number; query: string } | null {
  const match = TYPED.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> & {
  boardId: number;
  value: string;
  onValueChange: (value: string) => void;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
};

/**
 * A Markdown textarea that offers the board's people after `@`: arrow keys
 * choose, Enter or Tab inserts `@[Name](id)` (shown as a chip once rendered),
 * Escape closes the list. Stays a textbox for assistive technology, with
 * the list announced through aria-controls and aria-activedescendant.
 */
export function MentionTextarea({ boardId, value, onValueChange, textareaRef, onKeyDown, ...rest }: Props) {
  const { t } = useTranslation();
  const listId = useId();
  const fallback = useRef<HTMLTextAreaElement | null>(null);
  const own = textareaRef ?? fallback;
  const [typing, setTyping] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const people = useQuery({
    queryKey: ['mentionable', boardId, typing?.query ?? ''],
    queryFn: ({ signal }) =>
      api<{ people: MentionablePerson[] }>('/api/data/mentionable', { query: { boardId, q: typing?.query ?? '' }, signal }).then(
        (r) => r.people,
      ),
    enabled: typing !== null && !dismissed,
    staleTime: 30_000,
  });
  const options = typing && !dismissed ? (people.data ?? []) : [];
  const open = options.length > 0;

  const follow = (text: string, caret: number) => {
    const next = mentionBeingTyped(text, caret);
    if (next?.query !== typing?.query) setActive(0);
    setTyping(next);
    if (!next) setDismissed(false);
  };

  const caretAfter = useRef<number | null>(null);
  const insert = (person: MentionablePerson) => {
    if (!typing) return;
    const caret = own.current?.selectionStart ?? value.length;
    const markup = `${mentionMarkup(person)} `;
    const next = value.slice(0, typing.start) + markup + value.slice(caret);
    onValueChange(next);
    setTyping(null);
    caretAfter.current = typing.start + markup.length;
  };
  // The caret goes after the inserted mention as soon as the new text is in place (before the next key is typed).
  useLayoutEffect(() => {
    const at = caretAfter.current;
    if (at === null || !own.current) return;
    caretAfter.current = null;
    own.current.focus();
    own.current.setSelectionRange(at, at);
  }, [own, value]);

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + options.length) % options.length);
        return;
      }
      if ((event.key === 'Enter' && !event.metaKey && !event.ctrlKey) || event.key === 'Tab') {
        event.preventDefault();
        insert(options[Math.min(active, options.length - 1)]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setDismissed(true);
        return;
      }
    }
    onKeyDown?.(event);
  };

  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <div className="mention-field">
      <textarea
        {...rest}
        ref={own}
        value={value}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(Math.min(active, options.length - 1)) : undefined}
        onChange={(e) => {
          onValueChange(e.target.value);
          follow(e.target.value, e.target.selectionStart);
        }}
        onKeyDown={keyDown}
        onClick={(e) => follow(e.currentTarget.value, e.currentTarget.selectionStart)}
        onBlur={(e) => {
          rest.onBlur?.(e);
          // A click on an option lands first (it keeps the focus here by preventing mousedown).
          setTyping(null);
        }}
      />
      {open && (
        <ul className="mention-list" id={listId} role="listbox" aria-label={t('teams.mentionPeople')}>
          {options.map((person, i) => (
            <li
              key={person.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                insert(person);
              }}
              onMouseEnter={() => setActive(i)}
            >
              <span aria-hidden="true">
                <Avatar person={person} />
              </span>
              <span className="mention-name">{person.name}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
