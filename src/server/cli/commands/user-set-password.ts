import { setPassword } from '../../auth/operator.js';
import { required, type Command } from '../command.js';
import { readPassword } from '../password.js';
import { asOperator } from '../service.js';

export const userSetPassword: Command = {
  name: 'user set-password',
  summary: "set an account's password; its sessions, API keys and links end",
  usage: '--email <address>',
  help: `Options:
  --email <address>   the account (required)

The password is asked for twice at a terminal (nothing is shown), or read from
standard input: tavla user set-password --email … < password.txt
As when an administrator sets it: every session of the account ends (its open
tabs sign out), and so does what it handed out (API keys, calendar feeds,
webhooks, public links). An account without a password (SSO) gets one.`,
  options: { email: { type: 'string' } },
  async run(args, io) {
    const email = required(args, 'email');
    const password = await readPassword(io);
    await asOperator(io, (operator) => setPassword(operator, email, password));
    io.out(`Password set for ${email.trim().toLowerCase()}; its sessions were ended`);
    return 0;
  },
};
