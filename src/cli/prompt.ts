import readline from 'node:readline';
import { PassThrough } from 'node:stream';

/**
 * Questions on a terminal, or on piped stdin (answers one per line; tests and scripts). Lines that
 * arrive before their question is asked are kept, not lost; the end of input answers `undefined`.
 */
export class Prompter {
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string | undefined) => void)[] = [];
  private ended = false;
  private readonly rl: readline.Interface;

  private readonly terminal: boolean;
  /** A secret is being read: the terminal does not echo, and sends what raw mode sends. */
  private raw = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
  ) {
    this.terminal = (input as { isTTY?: boolean }).isTTY === true;
    this.rl = readline.createInterface({ input: this.terminal ? this.fromTerminal() : input, terminal: false });
    this.rl.on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      for (const waiter of this.waiting.splice(0)) waiter(undefined);
    });
  }

  /** Asks once; the answer trimmed, or `undefined` at the end of input. */
  ask(question: string): Promise<string | undefined> {
    this.output.write(question);
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(this.endLine(line.trim()));
    if (this.ended) return Promise.resolve(this.endLine(undefined));
    return new Promise((resolve) => this.waiting.push((answer) => resolve(this.endLine(answer?.trim()))));
  }

  /**
   * Asks for a secret (an endpoint with its token, an API key): on a terminal it is read without
   * echo (raw mode; Backspace and Ctrl+U edit, Ctrl+C interrupts); piped, a line as `ask` reads it.
   */
  async askSecret(question: string): Promise<string | undefined> {
    const tty = this.input as NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => void };
    if (!this.terminal || typeof tty.setRawMode !== 'function' || this.lines.length > 0) return this.ask(question);
    tty.setRawMode(true);
    this.raw = true;
    try {
      const typed = await this.ask(question);
      return typed === undefined ? undefined : edited(typed).trim();
    } finally {
      this.raw = false;
      tty.setRawMode(false);
      // Enter is not echoed either: end the line the question is on.
      this.output.write('\n');
    }
  }

  /**
   * The terminal's input as readline should see it. In raw mode Enter sends a lone CR, which readline
   * would pair with the next line's LF (dropping an answer typed at once): it is made an LF here; and
   * Ctrl+C, which raw mode no longer turns into a signal, is sent as one.
   */
  private fromTerminal(): NodeJS.ReadableStream {
    const lines = new PassThrough();
    this.input.on('data', (chunk: Buffer | string) => {
      if (!this.raw) return void lines.write(chunk);
      const text = chunk.toString();
      if (text.includes('\u0003')) {
        (this.input as { setRawMode?: (raw: boolean) => void }).setRawMode?.(false);
        this.output.write('\n');
        process.kill(process.pid, 'SIGINT');
        return;
      }
      lines.write(text.replace(/\r/g, '\n'));
    });
    this.input.on('end', () => lines.end());
    return lines;
  }

  /** y/n with a default; anything else asks again. */
  async confirm(question: string, byDefault: boolean): Promise<boolean | undefined> {
    for (;;) {
      const answer = await this.ask(`${question} ${byDefault ? '[Y/n]' : '[y/N]'} `);
      if (answer === undefined) return undefined;
      if (answer === '') return byDefault;
      if (/^(y|yes|是|好)$/i.test(answer)) return true;
      if (/^(n|no|否|不)$/i.test(answer)) return false;
    }
  }

  close(): void {
    this.rl.close();
    if (this.terminal) this.input.pause();
  }

  /** On a terminal the Enter key ends the line; piped answers do not, so end it here (without echoing a secret). */
  private endLine(answer: string | undefined): string | undefined {
    if (!this.terminal) this.output.write('\n');
    return answer;
  }
}

/** A line typed in raw mode as the terminal would have edited it: Backspace removes a character, Ctrl+U the line; other controls are dropped. */
function edited(raw: string): string {
  let text = '';
  for (const ch of raw) {
    if (ch === '\u007f' || ch === '\b') text = [...text].slice(0, -1).join('');
    else if (ch === '\u0015') text = '';
    else if (ch >= ' ') text += ch;
  }
  return text;
}
