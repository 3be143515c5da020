import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { keys } from '../../api/queries';
import type { Area } from '../../api/types';
import { mockFetch, renderApp, testQueryClient } from '../../test/render';
import { WipBadge, WipLimitDialog } from './WipLimit';

/** The WIP badge of an area's header and the dialog that sets the limit. */

const AREA: Area = { id: 3, board: 7, name: 'Doing', sort: 0, wipLimit: 3 };

test('shows the count alone without a limit, count against limit with one, red and announced when over', () => {
  const { rerender } = renderApp(<WipBadge area={{ ...AREA, wipLimit: null }} count={5} />);
  expect(screen.queryByTestId('wip-count')).toBeNull();
  expect(screen.getByLabelText('5 cards').textContent).toBe('5');
  expect(screen.queryByTestId('wip-live')).toBeNull();

  rerender(<WipBadge area={AREA} count={3} />);
  const badge = screen.getByTestId('wip-count');
  expect(badge.textContent).toBe('3/3');
  expect(badge.getAttribute('aria-label')).toBe('3 of at most 3 cards');
  expect(badge.classList.contains('over')).toBe(false);
  const live = screen.getByTestId('wip-live');
  expect(live.getAttribute('aria-live')).toBe('polite');
  expect(live.textContent).toBe('');

  rerender(<WipBadge area={AREA} count={4} />);
  expect(screen.getByTestId('wip-count').textContent).toBe('4/3');
  expect(screen.getByTestId('wip-count').classList.contains('over')).toBe(true);
  expect(screen.getByTestId('wip-live').textContent).toBe('Doing is over its limit: 4 cards, limit 3');
});

test('the dialog sets the limit through PATCH /api/data/area, refuses what is not 1–999, and clears it when empty', async () => {
  const { writes } = mockFetch(({ method, path, body }) => {
    if (method === 'PATCH' && path === '/api/data/area') {
      const { wipLimit } = body as { wipLimit: number | null };
      return { body: { area: { ...AREA, wipLimit } } };
    }
    return undefined;
  });
  const qc = testQueryClient();
  qc.setQueryData(keys.areas(7), [AREA]);
  const user = userEvent.setup();
  let closed = 0;
  const { unmount } = renderApp(<WipLimitDialog area={AREA} onClose={() => closed++} />, { qc });
  const input = screen.getByRole('spinbutton', { name: 'Most cards in this area' });
  expect((input as HTMLInputElement).value).toBe('3');
  await user.clear(input);
  await user.type(input, '1000');
  expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
  expect(input.getAttribute('aria-invalid')).toBe('true');
  await user.clear(input);
  await user.type(input, '5');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(closed).toBe(1);
  await waitFor(() => expect(writes()).toHaveLength(1));
  expect(writes()[0]!.body).toEqual({ id: 3, wipLimit: 5 });
  await waitFor(() => expect(qc.getQueryData<Area[]>(keys.areas(7))![0]!.wipLimit).toBe(5));
  unmount();

  renderApp(<WipLimitDialog area={{ ...AREA, wipLimit: 5 }} onClose={() => closed++} />, { qc });
  await user.clear(screen.getByRole('spinbutton'));
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(writes()).toHaveLength(2));
  expect(writes()[1]!.body).toEqual({ id: 3, wipLimit: null });
});
