import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock, IdGenerator } from '@app/domain';

/** Random bytes drawn from the CSPRNG at a time: one call serves 512 ids, as crypto.randomUUID pools its own. */
const RANDOM_POOL_BYTES = 4096;
/** Random bytes per id: rand_b, 62 bits of it kept after the variant. */
const RANDOM_BYTES_PER_ID = 8;

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids sort by creation time, which
 * keyset pagination relies on. A counter in rand_a keeps ids strictly increasing within a
 * millisecond; past its 4 096 ids the next millisecond is used before the clock reaches it.
 */
@Injectable()
export class UuidV7Generator extends IdGenerator {
  private lastMs = 0;
  private counter = 0;
  private random = Buffer.alloc(0);
  private randomOffset = 0;

  constructor(private readonly clock: Clock) {
    super();
  }

  next(): string {
    let ms = Math.max(this.clock.now().getTime(), this.lastMs);
    if (ms !== this.lastMs) this.counter = 0;
    else if (this.counter < 0xfff) this.counter += 1;
    else {
      // The millisecond's counter is spent: borrow the next millisecond (RFC 9562 §6.2), so that
      // ids keep increasing; the clock catches up with it.
      ms += 1;
      this.counter = 0;
    }
    this.lastMs = ms;
    if (this.randomOffset + RANDOM_BYTES_PER_ID > this.random.length) {
      this.random = randomBytes(RANDOM_POOL_BYTES);
      this.randomOffset = 0;
    }
    const bytes = Buffer.allocUnsafe(16);
    this.random.copy(bytes, 8, this.randomOffset, this.randomOffset + RANDOM_BYTES_PER_ID);
    this.randomOffset += RANDOM_BYTES_PER_ID;
    bytes.writeUIntBE(ms, 0, 6);
    bytes[6] = 0x70 | (this.counter >> 8);
    bytes[7] = this.counter & 0xff;
    bytes[8] = 0x80 | (bytes[8]! & 0x3f);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
