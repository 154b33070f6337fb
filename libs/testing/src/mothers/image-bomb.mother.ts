import { crc32, deflateSync } from 'node:zlib';

/**
 * Image files whose header declares far more pixels or frames than their bytes hold: a few dozen
 * bytes that a decoder would expand to gigabytes. Each is a valid file of its type, built here byte
 * by byte (the formats' own specifications), so that a header reader reports what it declares.
 */

function u16le(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

function u32le(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/** A lossless WebP (VP8L) of `width` × `height` (at most 16384 each), header only. */
export function webpDeclaring(width: number, height: number): Buffer {
  // VP8L: signature 0x2f, then width − 1 and height − 1 in 14 bits each, alpha and version bits 0.
  const header = Buffer.concat([Buffer.from([0x2f]), u32le(((width - 1) | ((height - 1) << 14)) >>> 0)]);
  const chunk = Buffer.concat([Buffer.from('VP8L'), u32le(header.length), header, Buffer.alloc(header.length % 2)]);
  return Buffer.concat([Buffer.from('RIFF'), u32le(4 + chunk.length), Buffer.from('WEBP'), chunk]);
}

/**
 * A GIF89a of `width` × `height` (at most 65535 each) with `frames` frames, each of the whole
 * screen and each holding one pixel of image data.
 */
export function gifDeclaring(width: number, height: number, frames = 1): Buffer {
  // Logical screen with a two-colour global table.
  const parts = [Buffer.from('GIF89a'), u16le(width), u16le(height), Buffer.from([0x80, 0, 0, 0, 0, 0, 255, 255, 255])];
  for (let frame = 0; frame < frames; frame += 1) {
    // Image descriptor, then LZW data: minimum code size 2, one sub-block of clear, pixel 0, end.
    parts.push(Buffer.from([0x2c]), u16le(0), u16le(0), u16le(width), u16le(height), Buffer.from([0]));
    parts.push(Buffer.from([2, 2, 0x44, 0x01, 0]));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** A PNG of `width` × `height` RGB pixels whose image data holds one short row. */
export function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1 + 3 * Math.min(width, 4)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A little-endian TIFF of `width` × `height` (at most 65535 each) grey pixels with `samples`
 * samples of `bits` bits each, and one strip of 16 bytes of image data.
 */
export function tiffDeclaring(width: number, height: number, samples: number, bits: number): Buffer {
  // Tag, type (3 SHORT, 4 LONG), value — each with a count of 1; StripOffsets filled in below.
  const entries: [number, number, number][] = [
    [256, 3, width],
    [257, 3, height],
    [258, 3, bits],
    [259, 3, 1], // no compression
    [262, 3, 1], // black is zero
    [273, 4, 0],
    [277, 3, samples],
    [278, 3, height], // one strip
    [279, 4, 16],
    [284, 3, 1], // samples interleaved
  ];
  const directory = 8;
  const data = directory + 2 + entries.length * 12 + 4;
  const file = Buffer.alloc(data + 16);
  file.write('II*\x00', 0, 'latin1');
  file.writeUInt32LE(directory, 4);
  file.writeUInt16LE(entries.length, directory);
  entries.forEach(([tag, type, value], index) => {
    const at = directory + 2 + index * 12;
    file.writeUInt16LE(tag, at);
    file.writeUInt16LE(type, at + 2);
    file.writeUInt32LE(1, at + 4);
    if (type === 3) file.writeUInt16LE(value, at + 8);
    else file.writeUInt32LE(tag === 273 ? data : value, at + 8);
  });
  return file;
}
