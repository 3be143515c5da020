import { announce, PUBLIC_LINK_CHANGES } from '../../db/channels.js';
import type { ChangeSubscriber } from '../../events/subscribers.js';
import { publicViewersOf } from './public-socket.js';

/**
 * A board's public link made, replaced or ended (the `link.changed` fact,
 * registered in app.ts): every other process hears of it at the commit (and
 * never if the change rolls back), and this process's open views of the
 * board check their link again once it committed.
 */
export const publicLinksOnChange: ChangeSubscriber = {
  written: async (scope, { facts }) => {
    if (!facts.some((fact) => fact.name === 'link.changed')) return;
    const boardId = scope.board.id;
    await announce(scope.dialect, scope.trx, PUBLIC_LINK_CHANGES, { boardId }, true);
    scope.afterCommit(() => publicViewersOf(scope.deps).recheck(boardId));
  },
  quiet: (facts) => !facts.includes('link.changed'),
};
