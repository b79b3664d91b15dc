/**
 * Text as a terminal lays it out: East Asian wide and fullwidth characters (汉字, かな, 한글, fullwidth
 * forms, most emoji) take two columns, combining marks and zero-width characters none. Tables of
 * Chinese server and tool names line up only when padded by this, not by `.length`.
 */

const WIDE: [number, number][] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

const ZERO = /[\p{Mn}\p{Me}\p{Cf}\p{Cc}]/u;

function charWidth(char: string): number {
  if (ZERO.test(char)) return 0;
  const code = char.codePointAt(0) as number;
  for (const [from, to] of WIDE) {
    if (code < from) return 1;
    if (code <= to) return 2;
  }
  return 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** `text` padded with spaces to `width` columns. */
export function padDisplay(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** At most `max` columns, whitespace flattened, with … when cut. */
export function shortenDisplay(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  if (displayWidth(flat) <= max) return flat;
  let out = '';
  let width = 0;
  for (const char of flat) {
    const w = charWidth(char);
    if (width + w > max - 1) break;
    out += char;
    width += w;
  }
  return `${out}…`;
}
