import { accounts } from '../../auth/operator.js';
import type { Command } from '../command.js';
import { openService } from '../service.js';

export const userList: Command = {
  name: 'user list',
  summary: 'list the accounts, oldest first',
  usage: '[--json]',
  help: `Options:
  --json   one JSON array (id, email, name, role, emailVerified, banned, createdAt)

Without --json: one account a line, tab-separated: email, role, confirmed or
unconfirmed (banned when banned), name, created.`,
  options: { json: { type: 'boolean' } },
  async run(args, io) {
    const service = await openService(io);
    try {
      const list = await accounts(service.deps);
      if (args.values.json) {
        io.out(JSON.stringify(list, null, 2));
        return 0;
      }
      for (const a of list) {
        const state = [a.emailVerified ? 'confirmed' : 'unconfirmed', ...(a.banned ? ['banned'] : [])].join(',');
        io.out([a.email, a.role, state, a.name, a.createdAt].join('\t'));
      }
      return 0;
    } finally {
      await service.close();
    }
  },
};
