import { setRole, type Role } from '../../auth/operator.js';
import { required, type Command } from '../command.js';
import { asOperator } from '../service.js';

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
      const changed = await asOperator(io, (operator) => setRole(operator, email, role));
      const address = email.trim().toLowerCase();
      io.out(
        changed ? `${address} is now ${role === 'admin' ? 'an administrator' : 'an ordinary account'}` : `${address} already was`,
      );
      return 0;
    },
  };
}

export const userPromote = roleCommand('promote', 'admin');
export const userDemote = roleCommand('demote', 'user');
