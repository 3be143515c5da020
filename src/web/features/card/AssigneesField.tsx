import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getCards } from '../../api/cache';
import { keys, membersQuery } from '../../api/queries';
import type { Area, Board, Person } from '../../api/types';
import { useUser } from '../../app/session';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';

interface Props {
  board: Board;
  assignees: Person[];
  writeAccess: boolean;
  onChange: (assignees: Person[]) => void;
}

/**
 * Who is on the card. The people to choose from: me, everyone already on a
 * card of the board, and — for the owner — the board's members.
 */
export function AssigneesField({ board, assignees, writeAccess, onChange }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const me = useUser();
  const owner = board.user === me.id;
  const members = useQuery({ ...membersQuery(board.id), enabled: owner && writeAccess });
  const [open, setOpen] = useState(false);

  const candidates = useMemo(() => {
    if (!open) return [];
    const people = new Map<string, Person>();
    // Members and I come without a type: only accounts on a card say whether they are artificial.
    const add = (p: Omit<Person, 'type'> & { type?: string }) => {
      if (!people.has(p.id)) people.set(p.id, { id: p.id, name: p.name, image: p.image, type: p.type ?? 'human' });
    };
    add({ id: me.id, name: me.name, image: me.image });
    for (const m of members.data?.members ?? []) add(m);
    for (const area of qc.getQueryData<Area[]>(keys.areas(board.id)) ?? []) {
      for (const card of getCards(qc, area.id) ?? []) card.assignees.forEach(add);
    }
    assignees.forEach(add);
    return [...people.values()];
    // The cache is read again whenever the picker opens.
  }, [open, members.data, assignees, me, qc, board.id]);

  const toggle = (person: Person) => {
    const on = assignees.some((a) => a.id === person.id);
    onChange(on ? assignees.filter((a) => a.id !== person.id) : [...assignees, person]);
  };

  return (
    <div className="assignees-field">
      {assignees.length > 0 ? (
        <ul className="person-list">
          {assignees.map((person) => (
            <li key={person.id} className="person-row">
              <Avatar person={person} />
              <span>{person.name}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">{t('card.nobodyAssigned')}</p>
      )}
      {writeAccess && (
        <>
          <button type="button" className="btn btn-sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            <Icon name="users" size={15} />
            {t('card.chooseAssignees')}
          </button>
          {open && (
            <ul className="picker" aria-label={t('card.assignees')}>
              {candidates.map((person) => {
                const on = assignees.some((a) => a.id === person.id);
                return (
                  <li key={person.id}>
                    <label className="picker-row">
                      <input type="checkbox" checked={on} onChange={() => toggle(person)} />
                      <Avatar person={person} />
                      <span>{person.id === me.id ? t('card.me', { name: person.name }) : person.name}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
