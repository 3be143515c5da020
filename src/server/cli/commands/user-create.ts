import { createAccount } from '../../auth/operator.js';
import { required, type Command } from '../command.js';
import { readPassword } from '../password.js';
import { asOperator } from '../service.js';

export const userCreate: Command = {
  name: 'user create',
  summary: 'make an account (the password is typed, or read from standard input)',
  usage: '--email <address> --name <name> [--admin] [--verified] [--no-password]',
  help: `Options:
  --email <address>   the account's address (required)
  --name <name>       the name others see (required)
  --admin             make it an administrator (the instance's first account always is one)
  --verified          count the address as confirmed (you vouch for it); otherwise the
                      account gets the confirmation mail a sign-up gets
  --no-password       no password: the account signs in through SSO, or sets one with
                      "Forgot password" or \`tavla user set-password\`

The password is asked for twice at a terminal (nothing is shown), or read from
standard input: printf '%s' "$PASSWORD" | tavla user create --email … --name …
The first account of an instance is its administrator and counts as confirmed.`,
  options: {
    email: { type: 'string' },
    name: { type: 'string' },
    admin: { type: 'boolean' },
    verified: { type: 'boolean' },
    'no-password': { type: 'boolean' },
  },
  async run(args, io) {
    const email = required(args, 'email');
    const name = required(args, 'name');
    const password = args.values['no-password'] ? null : await readPassword(io);
    const made = await asOperator(io, (operator) =>
      createAccount(operator, {
        email,
        name,
        password,
        admin: args.values.admin === true,
        verified: args.values.verified === true,
      }),
    );
    const confirmed = made.emailVerified ? 'address confirmed' : 'address unconfirmed: a confirmation mail is queued';
    io.out(`Created ${made.email} (${made.role}, ${confirmed}), id ${made.id}`);
    return 0;
  },
};
