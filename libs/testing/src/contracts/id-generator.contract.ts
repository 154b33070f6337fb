import type { IdGenerator } from '@app/domain';

export interface IdGeneratorUnderTest {
  readonly generator: IdGenerator;
  /** Sets the clock the generator reads (a generator that reads none ignores it). */
  setClock(instant: Date): void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The IdGenerator contract: ids fit a `uuid` column, never repeat, and sort (as strings, as the
 * database compares uuids) in the order they were made — however many are made at one instant, and
 * when the clock steps back — so keyset pagination follows creation.
 */
export function describeIdGeneratorContract(
  name: string,
  factory: () => IdGeneratorUnderTest | Promise<IdGeneratorUnderTest>,
): void {
  describe(`IdGenerator contract: ${name}`, () => {
    let subject: IdGeneratorUnderTest;

    beforeEach(async () => {
      subject = await factory();
      subject.setClock(new Date('2026-11-20T10:00:00.000Z'));
    });

    const make = (count: number) => Array.from({ length: count }, () => subject.generator.next());

    it('makes distinct ids in uuid syntax, sorting in the order they were made, many at one instant', () => {
      // More than the 4 096 a UUIDv7 millisecond's 12-bit counter holds.
      const ids = make(10_000);

      expect(ids.filter((id) => !UUID.test(id))).toEqual([]);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id, i) => i > 0 && id <= ids[i - 1])).toEqual([]);
    });

    it('keeps sorting ids after the earlier ones when the clock steps back', () => {
      const before = make(3);
      subject.setClock(new Date('2026-11-20T09:59:59.000Z'));
      const after = make(3);

      const ids = [...before, ...after];
      expect(ids.filter((id, i) => i > 0 && id <= ids[i - 1])).toEqual([]);
    });
  });
}
