// Writes public/icons/icon-{16,48,128}.png: a rounded indigo tile with two arrows (event ⇄ action).
// Run once by hand (`node scripts/make-icons.mjs`); the PNGs are checked in.
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) {
    c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};

function icon(size) {
  const px = (x, y) => {
    const u = (x + 0.5) / size,
      v = (y + 0.5) / size;
    const r = 0.18,
      cx = Math.min(Math.max(u, r), 1 - r),
      cy = Math.min(Math.max(v, r), 1 - r);
    if (Math.hypot(u - cx, v - cy) > r) {
      return [0, 0, 0, 0];
    }
    const arrow = (yc, dir) => {
      const t = 0.06;
      if (Math.abs(v - yc) < t / 2 && u > 0.22 && u < 0.78) {
        return true;
      }
      const tip = dir > 0 ? 0.78 : 0.22,
        d = (u - tip) * -dir;
      return d >= 0 && d < 0.16 && Math.abs(v - yc) < 0.16 - d;
    };
    if (arrow(0.36, 1) || arrow(0.64, -1)) {
      return [255, 255, 255, 255];
    }
    return [79, 70, 229, 255];
  };
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      raw.set(px(x, y), y * (size * 4 + 1) + 1 + x * 4);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(new URL('../public/icons/', import.meta.url), { recursive: true });
for (const s of [16, 48, 128]) {
  writeFileSync(new URL(`../public/icons/icon-${s}.png`, import.meta.url), icon(s));
}
