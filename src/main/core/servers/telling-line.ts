/**
 * The line of a program's stderr that says why it stopped: the `Error:` line of a Node crash (not
 * the "Node.js v20" it ends with), the last line of a Python traceback, uv's `error:`, npm's 404.
 * Fed line by line as they come, so it survives a long stack trace that pushes it out of the tail.
 */
export class TellingLine {
  private best: string | undefined;
  private bestWeight = 0;
  private bestIsNpm = false;

  /** The most telling line so far, or undefined when nothing looked like an error. */
  get line(): string | undefined {
    return this.best;
  }

  reset(): void {
    this.best = undefined;
    this.bestWeight = 0;
    this.bestIsNpm = false;
  }

  push(line: string): void {
    const weight = lineWeight(line);
    if (weight === 0 || weight < this.bestWeight) return;
    // npm's first error line names the failure; the ones after it explain (or say where the log is).
    const npm = NPM.test(line);
    if (weight === this.bestWeight && npm && this.bestIsNpm) return;
    this.best = line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS)}…` : line;
    this.bestWeight = weight;
    this.bestIsNpm = npm;
  }
}

const MAX_CHARS = 300;

const NPM = /^npm (?:error|ERR!) /;

/** `Error: …`, `TypeError: …`, `Error [ERR_MODULE_NOT_FOUND]: …`, `ModuleNotFoundError: …`, `java.lang.IllegalStateException: …`. */
const EXCEPTION = /^(?:Uncaught\s+)?(?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*(?:Error|Exception)(?:\s*\[[\w.-]+\])?(?::\s*\S|\s*$)/;
/** `error: …` (uv, Rust), `panic: …` (Go), `FATAL ERROR: …` (V8 out of memory), `ERROR:root:…` (Python logging). */
const ERROR_WORD = /^(?:panic|fatal(?: error)?|error)(?:\[\w+\])?:\s*\S/i;
/** What npm says after its first error line: not why it failed. */
const NPM_AFTERWORD = /^npm (?:error|ERR!)\s*(?:$|code |errno |syscall |path |dest |A complete log|Log files|\d{3}\s*$)/;
const HINTS = /\b(?:Cannot find (?:module|package)|No module named|command not found|Permission denied|ENOENT|EACCES|EADDRINUSE)\b/;

/** How much a line says about a failure: 0 nothing (a stack frame, a banner), 1 a hint, 2 npm's own, 3 an error line. */
export function lineWeight(raw: string): number {
  // Indented lines are stack frames, quoted source or the details under an error line.
  if (raw.length === 0 || /^\s/.test(raw)) return 0;
  const line = raw.trimEnd();
  if (EXCEPTION.test(line) || ERROR_WORD.test(line)) return 3;
  if (NPM.test(line)) return NPM_AFTERWORD.test(line) ? 0 : 2;
  return HINTS.test(line) ? 1 : 0;
}
