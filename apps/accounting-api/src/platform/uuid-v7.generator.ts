import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock, IdGenerator } from '@app/domain';

/** Random bytes drawn from the CSPRNG at a time: one call serves 512 ids, as crypto.randomUUID pools its own. */
const RANDOM_POOL_BYTES = 4096;
/** Random bytes per id: rand_b, 62 bits of it kept after the variant. */
const RANDOM_BYTES_PER_ID = 8;

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids sort by creation time, which
 * keyset pagination relies on. A counter in rand_a keeps ids strictly increasing within a millisecond.
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
    const ms = Math.max(this.clock.now().getTime(), this.lastMs);
    this.counter = ms === this.lastMs ? (this.counter + 1) & 0xfff : 0;
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
