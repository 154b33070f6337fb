/** New opaque ids (UUIDv7 in production: time-ordered, so keyset pagination follows creation). */
export abstract class IdGenerator {
  abstract next(): string;
}
