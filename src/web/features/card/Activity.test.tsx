import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { mockFetch, ME, renderApp } from '../../test/render';
import { Activity } from './Activity';

/** A card's history names custom field changes: set, cleared, ticked, unticked. */

const at = '2026-03-01T10:00:00.000Z';
const actor = { id: ME.user.id, name: 'Ada', image: null, type: 'human' };
const entry = (data: Record<string, unknown>) => ({ type: 'field', actor, data, createdAt: at });

test('field value changes read as sentences naming the field and its value', async () => {
  mockFetch(({ path }) =>
    path === '/api/data/card-activity'
      ? {
          body: {
            activity: [
              entry({ fieldId: 1, name: 'Priority', fieldType: 'select', value: 'High' }),
              entry({ fieldId: 2, name: 'Estimate', fieldType: 'number', value: 3 }),
              entry({ fieldId: 3, name: 'Start', fieldType: 'date', value: '2026-04-02' }),
              entry({ fieldId: 4, name: 'Approved', fieldType: 'checkbox', value: true }),
              entry({ fieldId: 4, name: 'Approved', fieldType: 'checkbox', value: false }),
              entry({ fieldId: 1, name: 'Priority', fieldType: 'select', value: null }),
            ],
          },
        }
      : undefined,
  );
  renderApp(<Activity cardId={42} />);
  const items = await screen.findAllByRole('listitem');
  // Newest first.
  expect(items.map((li) => li.textContent?.replace(/\s+/g, ' '))).toEqual([
    expect.stringContaining('Ada cleared Priority'),
    expect.stringContaining('Ada unticked Approved'),
    expect.stringContaining('Ada ticked Approved'),
    expect.stringContaining('Ada set Start to 2026-04-02'),
    expect.stringContaining('Ada set Estimate to 3'),
    expect.stringContaining('Ada set Priority to High'),
  ]);
});
