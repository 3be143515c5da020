import type { Command } from './command.js';
import { backup } from './commands/backup.js';
import { doctor } from './commands/doctor.js';
import { filesMoveToS3 } from './commands/files-move-to-s3.js';
import { migrate } from './commands/migrate.js';
import { restore } from './commands/restore.js';
import { userCreate } from './commands/user-create.js';
import { userList } from './commands/user-list.js';
import { userDemote, userPromote } from './commands/user-role.js';
import { userSetPassword } from './commands/user-set-password.js';

/** Every command of `tavla`, in the order `tavla --help` lists them. */
export const commands: Command[] = [
  userCreate,
  userList,
  userSetPassword,
  userPromote,
  userDemote,
  backup,
  restore,
  migrate,
  filesMoveToS3,
  doctor,
];
