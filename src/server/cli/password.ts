import { Failure, type Io } from './command.js';

/**
 * The password a command sets: typed at a terminal (asked twice, nothing
 * shown), else the whole of standard input (`… < file`, a pipe) less one
 * line end, so that it never shows in the process list or the shell history.
 */
export async function readPassword(io: Io): Promise<string> {
  if (io.stdin.isTTY) {
    const first = await typed(io, 'New password: ');
    const again = await typed(io, 'Once more: ');
    if (first !== again) throw new Failure('The two passwords differ; nothing was changed');
    return first;
  }
  let text = '';
  io.stdin.setEncoding('utf8');
  for await (const chunk of io.stdin) text += chunk as string;
  const password = text.replace(/\r?\n$/, '');
  if (password === '') throw new Failure('No password on standard input; nothing was changed');
  if (password.includes('\n')) throw new Failure('The password on standard input spans several lines; nothing was changed');
  return password;
}

/** One line typed at the terminal without echo; Ctrl-C stops the command (exit 130, as a shell reports SIGINT). */
function typed(io: Io, prompt: string): Promise<string> {
  const { stdin } = io;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve) => {
    let text = '';
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          done();
          resolve(text);
          return;
        }
        if (char === '\u0003') {
          done();
          process.exit(130);
        }
        if (char === '\u007f' || char === '\b') text = text.slice(0, -1);
        else if (char >= ' ') text += char;
      }
    };
    stdin.on('data', onData);
  });
}
