import { pacer } from './pacing.js';

/** About how much text one piece is: well under a millisecond of `JSON.parse`. */
const STEP_CHARS = 16 * 1024;

/** The text is not the kind of JSON this reader takes apart; parse it whole instead (which says what is wrong). */
class NotSplittable extends Error {}

/**
 * Parses a JSON object a piece at a time, with the event loop's turn between
 * pieces: an object is taken apart member by member and an array element by
 * element, down to pieces of about `STEP_CHARS`, each parsed by `parse`
 * (which also refuses what is unsafe in it). A board file or a Trello export
 * of 30 MB would otherwise hold the process for a parse of its own. Anything
 * that is not a well-formed object is handed to `parse` whole, so the answer
 * (the value, or the error) is the same as `parse(text)`.
 */
export async function parseInSteps(text: string, parse: (text: string) => unknown): Promise<unknown> {
  const start = skipBlanks(text, 0);
  if (text.charCodeAt(start) !== 0x7b /* { */) return parse(text);
  try {
    const reader = new Reader(text, parse);
    const value = await reader.object(start);
    if (skipBlanks(text, reader.end) !== text.length) throw new NotSplittable();
    return value;
  } catch (error) {
    if (error instanceof NotSplittable) return parse(text);
    throw error;
  }
}

const BLANK = /[^ \t\n\r]/g;

function skipBlanks(text: string, from: number): number {
  BLANK.lastIndex = from;
  return BLANK.exec(text) ? BLANK.lastIndex - 1 : text.length;
}

class Reader {
  /** Where the value read last ends. */
  end = 0;
  private readonly pace = pacer();

  constructor(
    private readonly text: string,
    private readonly parse: (text: string) => unknown,
  ) {}

  /** The end (exclusive) of the string starting at `from` (a `"`). */
  private stringEnd(from: number): number {
    let i = from + 1;
    for (;;) {
      const quote = this.text.indexOf('"', i);
      if (quote < 0) throw new NotSplittable();
      let slashes = 0;
      while (this.text.charCodeAt(quote - 1 - slashes) === 0x5c /* \ */) slashes++;
      if (slashes % 2 === 0) return quote + 1;
      i = quote + 1;
    }
  }

  /**
   * The end (exclusive) of the value starting at `from`, or -1 when it runs
   * past `from + limit` (it is then large: taken apart rather than scanned whole).
   */
  private valueEnd(from: number, limit = Infinity): number {
    const text = this.text;
    const first = text.charCodeAt(from);
    if (first === 0x22) return this.stringEnd(from);
    if (first !== 0x7b && first !== 0x5b) {
      // A number, true, false or null: up to the next separator.
      const match = /[,}\]\s]/g;
      match.lastIndex = from;
      return match.exec(text) ? match.lastIndex - 1 : text.length;
    }
    const stop = Math.min(text.length, from + limit);
    let depth = 0;
    let inString = false;
    for (let i = from; i < stop; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    if (stop < text.length) return -1;
    throw new NotSplittable();
  }

  private async parsed(from: number, to: number): Promise<unknown> {
    const value = this.parse(this.text.slice(from, to));
    await this.pace.pause();
    return value;
  }

  /** A value: taken apart when it is a large object or array, else parsed at once. */
  private async value(from: number): Promise<unknown> {
    const to = this.valueEnd(from, STEP_CHARS);
    if (to >= 0) {
      this.end = to;
      return this.parsed(from, to);
    }
    return this.text.charCodeAt(from) === 0x7b ? this.object(from) : this.array(from);
  }

  async object(from: number): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    let i = skipBlanks(this.text, from + 1);
    if (this.text[i] === '}') {
      this.end = i + 1;
      return out;
    }
    for (;;) {
      if (this.text[i] !== '"') throw new NotSplittable();
      const keyEnd = this.stringEnd(i);
      const key = this.parse(this.text.slice(i, keyEnd)) as string;
      const colon = skipBlanks(this.text, keyEnd);
      if (this.text[colon] !== ':') throw new NotSplittable();
      const value = await this.value(skipBlanks(this.text, colon + 1));
      // What `parse` drops inside a piece is dropped between pieces too: no prototype is set through a key.
      if (key === '__proto__' || key === 'constructor') {
        const probe = this.parse(`{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`) as Record<string, unknown>;
        if (Object.hasOwn(probe, key))
          Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      } else out[key] = value;
      i = skipBlanks(this.text, this.end);
      if (this.text[i] === '}') {
        this.end = i + 1;
        return out;
      }
      if (this.text[i] !== ',') throw new NotSplittable();
      i = skipBlanks(this.text, i + 1);
    }
  }

  /** An array: runs of small elements parsed together (`[` + the run's text + `]`), large ones taken apart. */
  async array(from: number): Promise<unknown[]> {
    const out: unknown[] = [];
    let i = skipBlanks(this.text, from + 1);
    if (this.text[i] === ']') {
      this.end = i + 1;
      return out;
    }
    let run = -1;
    let runEnd = -1;
    const flush = async () => {
      if (run < 0) return;
      const items = this.parse(`[${this.text.slice(run, runEnd)}]`) as unknown[];
      for (const item of items) out.push(item);
      run = -1;
      await this.pace.pause();
    };
    for (;;) {
      let end = this.valueEnd(i, STEP_CHARS);
      if (end < 0) {
        await flush();
        out.push(await this.value(i));
        end = this.end;
      } else {
        if (run < 0) run = i;
        runEnd = end;
        if (runEnd - run >= STEP_CHARS) await flush();
      }
      i = skipBlanks(this.text, end);
      if (this.text[i] === ']') {
        await flush();
        this.end = i + 1;
        return out;
      }
      if (this.text[i] !== ',') throw new NotSplittable();
      i = skipBlanks(this.text, i + 1);
    }
  }
}
