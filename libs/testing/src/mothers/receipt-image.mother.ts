import sharp from 'sharp';

export interface ReceiptImageOptions {
  /** Which receipt: another seed draws other lines, as another purchase's receipt has. */
  readonly seed?: number;
  /**
   * Another purchase printed from the same template: the seed's layout with the four lines of the
   * amounts drawn anew from this number (the same subscription's receipt, another month).
   */
  readonly variant?: number;
  readonly format?: 'png' | 'jpeg';
  /** JPEG quality, to encode the same picture into other bytes. */
  readonly quality?: number;
}

/**
 * A picture of a receipt: a white 240 × 480 slip with dark lines of seeded lengths, as a photo
 * of a till receipt looks from afar. Deterministic for a seed and format.
 */
export async function receiptImage(options: ReceiptImageOptions = {}): Promise<Buffer> {
  const width = 240;
  const height = 480;
  const pixels = Buffer.alloc(width * height, 255);
  let state = (options.seed ?? 1) >>> 0;
  const next = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
  let amounts = (1_000 + (options.variant ?? 0)) >>> 0;
  const nextAmount = () => {
    amounts = (Math.imul(amounts, 1_664_525) + 1_013_904_223) >>> 0;
    return amounts / 4_294_967_296;
  };
  for (let line = 0; line < 28; line++) {
    const top = 20 + line * 16;
    const left = 16 + Math.floor(next() * 60);
    const length = Math.floor(next() * (width - left - 56));
    const right =
      left +
      40 +
      (options.variant !== undefined && line >= 20 && line < 24
        ? Math.floor(nextAmount() * (width - left - 56))
        : length);
    for (let y = top; y < top + 8; y++) pixels.fill(30, y * width + left, y * width + right);
  }
  const image = sharp(pixels, { raw: { width, height, channels: 1 } });
  return options.format === 'jpeg' ? image.jpeg({ quality: options.quality ?? 90 }).toBuffer() : image.png().toBuffer();
}
