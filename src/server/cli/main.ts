/**
 * `tavla <command>` (bin/tavla.mjs runs this): operating an instance from its
 * machine, with the service's own code and configuration (the same
 * environment variables). Exit codes: 0 done, 1 failed or refused, 2 the
 * command line is wrong. Errors go to stderr, one line, never a stack trace
 * (TAVLA_DEBUG=1 shows it).
 */
import { serviceVersion } from '../version.js';
import { Failure, parse, UsageError, type Command, type Io } from './command.js';
import { commands } from './registry.js';

const io: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stdin: process.stdin,
};

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: tavla <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'tavla <command> --help   what a command takes',
    'tavla --version          the version',
    '',
    "The commands read the service's environment (DATABASE_URL, DATA_DIR, BASE_URL, AUTH_SECRET, SMTP_URL…).",
    'Exit codes: 0 done, 1 failed or refused, 2 wrong usage.',
  ].join('\n');
}

function commandHelp(command: Command): string {
  return [
    `Usage: tavla ${command.name}${command.usage ? ` ${command.usage}` : ''}`,
    '',
    `${command.summary}.`,
    '',
    command.help,
  ].join('\n');
}

/** The command the words name: the longest name that the first words spell (`user create`, `backup`). */
function find(words: string[]): { command: Command; rest: string[] } | undefined {
  for (const command of [...commands].sort((a, b) => b.name.length - a.name.length)) {
    const parts = command.name.split(' ');
    if (parts.every((part, i) => words[i] === part)) return { command, rest: words.slice(parts.length) };
  }
  return undefined;
}

const isHelp = (word: string) => word === '--help' || word === '-h';

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || (argv.length === 1 && (isHelp(argv[0]!) || argv[0] === 'help'))) {
    (argv.length === 0 ? io.err : io.out)(overview());
    return argv.length === 0 ? 2 : 0;
  }
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.out(serviceVersion);
    return 0;
  }
  const found = find(argv);
  if (!found) {
    // `tavla user` alone, or `tavla user --help`: the commands of that group.
    const group = commands.filter((c) => c.name.startsWith(`${argv[0]} `));
    if (group.length > 0 && (argv.length === 1 || isHelp(argv[1]!))) {
      io[argv.length === 1 ? 'err' : 'out'](
        [`Usage: tavla ${argv[0]} <command>`, '', ...group.map((c) => `  tavla ${c.name.padEnd(18)} ${c.summary}`)].join('\n'),
      );
      return argv.length === 1 ? 2 : 0;
    }
    throw new UsageError(`unknown command "${argv.slice(0, group.length > 0 ? 2 : 1).join(' ')}" (tavla --help lists them)`);
  }
  if (found.rest.some(isHelp)) {
    io.out(commandHelp(found.command));
    return 0;
  }
  return found.command.run(parse(found.command, found.rest), io);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      io.err(`tavla: ${error.message}`);
      return process.exit(2);
    }
    if (error instanceof Failure) io.err(`tavla: ${error.message}`);
    else if (process.env.TAVLA_DEBUG) io.err(`tavla: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    else io.err(`tavla: failed: ${error instanceof Error ? error.message : String(error)} (TAVLA_DEBUG=1 shows where)`);
    process.exit(1);
  },
);
