import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * One command of `tavla` (cli/commands/*.ts, listed in cli/registry.ts).
 * `name` is what follows `tavla` (`user create`); `run` answers the exit code
 * (0 done, 1 failed); it throws `UsageError` for words it cannot use (exit 2)
 * and `Failure` for a refusal to say in one line (exit 1).
 */
export interface Command {
  name: string;
  /** One line, for `tavla --help`. */
  summary: string;
  /** `tavla <name> <usage>` */
  usage: string;
  /** The rest of `tavla <name> --help`: options, what it does, where its input comes from. */
  help: string;
  options?: ParseArgsConfig['options'];
  /** How many positional words it takes: [at least, at most]. */
  positionals?: [number, number];
  run(args: Parsed, io: Io): Promise<number>;
}

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Where a command reads and writes: the process's own streams, so the tests run the real thing as a child process. */
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  stdin: NodeJS.ReadStream;
}

/** The command line cannot be used as written (exit code 2). */
export class UsageError extends Error {}

/** The command ran and was refused or failed, said in one line (exit code 1). */
export class Failure extends Error {}

/** The words after the command's name, checked against what it takes. */
export function parse(command: Command, argv: string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const [min, max] = command.positionals ?? [0, 0];
  const count = parsed.positionals.length;
  if (count < min) throw new UsageError(`missing argument: tavla ${command.name} ${command.usage}`);
  if (count > max) throw new UsageError(`unexpected argument "${parsed.positionals[max]}"`);
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
}

/** A string option the command cannot do without. */
export function required(args: Parsed, name: string): string {
  const value = args.values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}
