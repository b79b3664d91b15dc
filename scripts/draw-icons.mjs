// Draws the tray and app icons as PNGs (run: node scripts/draw-icons.mjs; the output is committed).
// Shapes are described in a 16-unit space and rasterised with 8×8 supersampling, so the 16 px icons
// stay crisp and every size comes from one drawing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- shapes (16-unit space) ----
const roundRect = (x0, y0, x1, y1, r) => (x, y) => {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return x >= x0 && x <= x1 && y >= y0 && y <= y1 && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const ring = (cx, cy, r0, r1) => (x, y) => {
  const d = (x - cx) ** 2 + (y - cy) ** 2;
  return d <= r1 * r1 && d >= r0 * r0;
};
const triangle = (ax, ay, bx, by, cx, cy) => (x, y) => {
  const s = (px, py, qx, qy) => (x - qx) * (py - qy) - (px - qx) * (y - qy);
  const d1 = s(ax, ay, bx, by),
    d2 = s(bx, by, cx, cy),
    d3 = s(cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
};
const union =
  (...fs) =>
  (x, y) =>
    fs.some((f) => f(x, y));
const minus = (a, b) => (x, y) => a(x, y) && !b(x, y);

const bubble = union(roundRect(1, 1.5, 15, 11.5, 3.6), triangle(3.2, 10.5, 3.2, 14.8, 7.8, 10.5));
const bars = union(roundRect(4.4, 5.2, 5.9, 7.8, 0.75), roundRect(7.25, 3.6, 8.75, 9.4, 0.75), roundRect(10.1, 5.2, 11.6, 7.8, 0.75));
const bubbleOutline = minus(bubble, union(roundRect(2.4, 2.9, 13.6, 10.1, 2.3), triangle(4.4, 9.9, 4.4, 12.2, 6.4, 9.9)));
const badgeGap = circle(12.4, 12.4, 4.4);
const badge = circle(12.4, 12.4, 3.1);
const badgeRing = ring(12.4, 12.4, 1.7, 3.1);
// Error is a warning triangle, not a dot: told apart from "connected" by shape as well as colour.
const warnGap = triangle(12.2, 6.0, 6.6, 16.6, 17.8, 16.6);
const warn = triangle(12.2, 7.9, 8.2, 15.3, 16.2, 15.3);

const hex = (h, a = 1) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16), a];

/** Layers are painted in order: [shape, [r,g,b,a]] or [shape, 'clear']. */
function render(size, layers) {
  const out = Buffer.alloc(size * size * 4);
  const ss = 8;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const x = ((px + (sx + 0.5) / ss) * 16) / size;
          const y = ((py + (sy + 0.5) / ss) * 16) / size;
          let col = null;
          for (const [shape, paint] of layers) if (shape(x, y)) col = paint === 'clear' ? null : paint;
          if (col) {
            r += col[0] * col[3];
            g += col[1] * col[3];
            b += col[2] * col[3];
            a += col[3];
          }
        }
      }
      const i = (py * size + px) * 4;
      const n = ss * ss;
      out[i + 3] = Math.round((a / n) * 255);
      if (a > 0) {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
      }
    }
  }
  return out;
}

const BRAND = hex('#4F5FE8');
const WHITE = hex('#FFFFFF');
const GRAY = hex('#8E939C');
const BADGE = { connected: hex('#16A34A'), partial: hex('#F59E0B'), connecting: hex('#0EA5E9'), error: hex('#DC2626') };

// Colour icons (Windows, Linux): a brand bubble with sound bars; a badge says the state.
const colour = {
  connected: [
    [bubble, BRAND],
    [bars, 'clear'],
    [badgeGap, 'clear'],
    [badge, BADGE.connected],
  ],
  partial: [
    [bubble, BRAND],
    [bars, 'clear'],
    [badgeGap, 'clear'],
    [badge, BADGE.partial],
  ],
  connecting: [
    [bubble, BRAND],
    [bars, 'clear'],
    [badgeGap, 'clear'],
    [badgeRing, BADGE.connecting],
  ],
  stopped: [
    [bubble, GRAY],
    [bars, 'clear'],
  ],
  error: [
    [bubble, BRAND],
    [bars, 'clear'],
    [warnGap, 'clear'],
    [warn, BADGE.error],
  ],
};
// macOS template images: black and alpha only, so the state is told by shape.
const BLACK = hex('#000000');
const FAINT = hex('#000000', 0.45);
const template = {
  connected: [
    [bubble, BLACK],
    [bars, 'clear'],
  ],
  partial: [
    [bubble, BLACK],
    [bars, 'clear'],
    [badgeGap, 'clear'],
    [badgeRing, BLACK],
  ],
  connecting: [
    [bubbleOutline, BLACK],
    [bars, BLACK],
  ],
  stopped: [
    [bubbleOutline, FAINT],
    [bars, FAINT],
  ],
  error: [
    [bubbleOutline, BLACK],
    [bars, BLACK],
    [warnGap, 'clear'],
    [warn, BLACK],
  ],
};

mkdirSync('assets/tray', { recursive: true });
for (const [state, layers] of Object.entries(colour)) {
  writeFileSync(`assets/tray/${state}.png`, png(16, render(16, layers)));
  writeFileSync(`assets/tray/${state}@2x.png`, png(32, render(32, layers)));
}
for (const [state, layers] of Object.entries(template)) {
  writeFileSync(`assets/tray/${state}Template.png`, png(16, render(16, layers)));
  writeFileSync(`assets/tray/${state}Template@2x.png`, png(32, render(32, layers)));
}
// The app icon: the bubble on a rounded tile.
const tile = roundRect(0.6, 0.6, 15.4, 15.4, 3.4);
const appBubble = union(roundRect(3, 3.6, 13, 10.8, 2.6), triangle(4.6, 10, 4.6, 13.2, 8, 10));
const appBars = union(roundRect(5.5, 6.2, 6.6, 8.2, 0.55), roundRect(7.45, 5, 8.55, 9.4, 0.55), roundRect(9.4, 6.2, 10.5, 8.2, 0.55));
writeFileSync(
  'assets/icon.png',
  png(
    512,
    render(512, [
      [tile, BRAND],
      [appBubble, WHITE],
      [appBars, BRAND],
    ]),
  ),
);
console.log('icons written to assets/');
