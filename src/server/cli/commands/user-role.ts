import { AccountRefused, setRole, type Role } from '../../auth/operator.js';
import { Failure, required, type Command } from '../command.js';
import { openService } from '../service.js';

function roleCommand(name: 'promote' | 'demote', role: Role): Command {
  return {
    name: `user ${name}`,
    summary: name === 'promote' ? 'make an account an administrator' : 'make an administrator an ordinary account',
    usage: '--email <address>',
    help: `Options:
  --email <address>   the account (required)
${
  name === 'demote'
    ? '\nThe last administrator is not demoted (nobody could make another one).'
    : '\nAn administrator manages accounts and the instance; it gains nothing on boards it is not on.'
}`,
    options: { email: { type: 'string' } },
    async run(args, io) {
      const email = required(args, 'email');
      const service = await openService(io);
      try {
        const deps = { auth: service.deps.auth, database: service.deps.database, hooks: service.hooks };
        const changed = await setRole(deps, email, role);
        const address = email.trim().toLowerCase();
        io.out(
          changed
            ? `${address} is now ${role === 'admin' ? 'an administrator' : 'an ordinary account'}`
            : `${address} already was`,
        );
        return 0;
      } catch (error) {
        if (error instanceof AccountRefused) throw new Failure(error.message);
        throw error;
      } finally {
        await service.close();
      }
    },
  };
}

export const userPromote = roleCommand('promote', 'admin');
export const userDemote = roleCommand('demote', 'user');
