import { IdGenerator } from '@app/domain';

/**
 * Predictable ids in UUID syntax (version 7 nibble, RFC variant) that sort in creation order, so they
 * fit a `uuid` column and keyset pagination: …-000000000001, …-000000000002, …
 * `namespace` (0–0xffff_ffff) keeps several generators in one test apart.
 */
export class SequentialIdGenerator extends IdGenerator {
  private counter = 0;

  constructor(private readonly namespace = 0) {
    super();
  }

  next(): string {
    this.counter += 1;
    return sequentialUuid(this.counter, this.namespace);
  }

  /** How many ids it has handed out. */
  get issued(): number {
    return this.counter;
  }
}

export function sequentialUuid(n: number, namespace = 0): string {
  const ns = namespace.toString(16).padStart(8, '0');
  return `${ns}-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
}
