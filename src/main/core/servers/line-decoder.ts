/**
 * Turns a child's stderr byte stream into lines. Bytes are decoded per line, so a multi-byte
 * character split across chunks is never mangled; a line that is not valid UTF-8 is decoded as
 * GBK where asked (Windows Python servers print in the console code page).
 */
export class LineDecoder {
  private pending: Buffer = Buffer.alloc(0);
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private readonly fallback: TextDecoder | undefined;

  constructor(
    private readonly onLine: (line: string) => void,
    options: { gbkFallback?: boolean; maxLineBytes?: number } = {},
  ) {
    this.fallback = options.gbkFallback ? new TextDecoder('gbk') : undefined;
    this.maxLineBytes = options.maxLineBytes ?? 16 * 1024;
  }

  private readonly maxLineBytes: number;

  push(chunk: Buffer): void {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    let newline = data.indexOf(0x0a);
    while (newline !== -1) {
      if (this.skipping) this.skipping = false;
      else this.emit(data.subarray(0, newline));
      data = data.subarray(newline + 1);
      newline = data.indexOf(0x0a);
    }
    if (this.skipping) data = Buffer.alloc(0);
    // A runaway line is cut rather than held forever, and the rest of it is skipped: emitting it as
    // more lines would start one with the second half of whatever the cut split (a key, say).
    if (data.length > this.maxLineBytes) {
      this.emit(Buffer.concat([data.subarray(0, this.maxLineBytes), Buffer.from(' …(line cut)')]));
      data = Buffer.alloc(0);
      this.skipping = true;
    }
    this.pending = Buffer.from(data);
  }

  /** Inside a runaway line, until its newline. */
  private skipping = false;

  /** Emits whatever is left (the stream ended without a final newline). */
  flush(): void {
    if (this.pending.length > 0) this.emit(this.pending);
    this.pending = Buffer.alloc(0);
  }

  private emit(bytes: Buffer): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 0x0d) end--;
    const line = this.decode(bytes.subarray(0, end));
    if (line.trim().length > 0) this.onLine(line);
  }

  private decode(bytes: Buffer): string {
    try {
      return this.utf8.decode(bytes);
    } catch {
      if (this.fallback) return this.fallback.decode(bytes);
      return new TextDecoder('utf-8').decode(bytes);
    }
  }
}
