import readline from 'node:readline';

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

  constructor(
    input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
  ) {
    this.terminal = (input as { isTTY?: boolean }).isTTY === true;
    this.rl = readline.createInterface({ input, terminal: false });
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
  }

  /** On a terminal the Enter key ends the line; piped answers do not, so end it here (without echoing a secret). */
  private endLine(answer: string | undefined): string | undefined {
    if (!this.terminal) this.output.write('\n');
    return answer;
  }
}
