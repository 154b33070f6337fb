import assert from 'node:assert/strict';
import type { WrappedDekRecord, WrappedDekRepository } from '@app/vault';

/** One behaviour every `WrappedDekRepository` adapter must have; throws (node:assert) when it does not. */
export interface RepositoryContractCase {
  readonly name: string;
  run(repository: WrappedDekRepository): Promise<void>;
}

function record(companyId: string, fill: number, kekId = 'local:v1'): WrappedDekRecord {
  return { companyId, wrapped: Buffer.alloc(60, fill), kekId };
}

function sameRecord(actual: WrappedDekRecord | null, expected: WrappedDekRecord): void {
  assert.ok(actual, `expected a record for ${expected.companyId}`);
  assert.equal(actual.companyId, expected.companyId);
  assert.equal(actual.kekId, expected.kekId);
  assert.ok(Buffer.from(actual.wrapped).equals(Buffer.from(expected.wrapped)), 'wrapped bytes differ');
}

/**
 * The shared contract test of `WrappedDekRepository`, framework-agnostic so that each adapter's spec
 * runs it: `for (const c of wrappedDekRepositoryContract) it(c.name, () => c.run(fresh()))`.
 * Each case expects a fresh, empty repository.
 */
export const wrappedDekRepositoryContract: readonly RepositoryContractCase[] = [
  {
    name: 'finds nothing for an unknown company',
    async run(repository) {
      assert.equal(await repository.find('nobody'), null);
    },
  },
  {
    name: 'stores binary wrapped keys byte for byte, including zero bytes',
    async run(repository) {
      const stored: WrappedDekRecord = {
        companyId: 'acme',
        wrapped: Buffer.from([0, 255, 0, 1, 128, 0]),
        kekId: 'local:v3',
      };
      sameRecord(await repository.insertIfAbsent(stored), stored);
      sameRecord(await repository.find('acme'), stored);
    },
  },
  {
    name: 'keeps the first record when a second insert races for the same company',
    async run(repository) {
      const [first, second] = await Promise.all([
        repository.insertIfAbsent(record('acme', 1)),
        repository.insertIfAbsent(record('acme', 2)),
      ]);
      sameRecord(second, first);
      sameRecord(await repository.find('acme'), first);
    },
  },
  {
    name: 'replaces the wrapping only while the row still holds the previous one',
    async run(repository) {
      const original = await repository.insertIfAbsent(record('acme', 1));
      const rewrapped = record('acme', 2, 'local:v2');
      assert.equal(await repository.replaceWrapping('acme', original, rewrapped), true);
      sameRecord(await repository.find('acme'), rewrapped);
      assert.equal(await repository.replaceWrapping('acme', original, record('acme', 3, 'local:v3')), false);
      sameRecord(await repository.find('acme'), rewrapped);
    },
  },
  {
    name: 'never resurrects a deleted key when replacing its wrapping',
    async run(repository) {
      const original = await repository.insertIfAbsent(record('acme', 1));
      assert.equal(await repository.delete('acme'), true);
      assert.equal(await repository.replaceWrapping('acme', original, record('acme', 2, 'local:v2')), false);
      assert.equal(await repository.find('acme'), null);
    },
  },
  {
    name: 'deletes one company only and says whether there was a key',
    async run(repository) {
      await repository.insertIfAbsent(record('acme', 1));
      await repository.insertIfAbsent(record('globex', 2));
      assert.equal(await repository.delete('acme'), true);
      assert.equal(await repository.delete('acme'), false);
      assert.equal(await repository.find('acme'), null);
      sameRecord(await repository.find('globex'), record('globex', 2));
    },
  },
  {
    name: 'lists every record in company id order, page after page',
    async run(repository) {
      const ids = ['delta', 'alpha', 'echo', 'charlie', 'bravo'];
      for (const [index, id] of ids.entries()) await repository.insertIfAbsent(record(id, index));
      const seen: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page: WrappedDekRecord[] = await repository.listAfter(after, 2);
        seen.push(...page.map((row) => row.companyId));
        if (page.length < 2) break;
        after = page[page.length - 1].companyId;
      }
      assert.deepEqual(seen, ['alpha', 'bravo', 'charlie', 'delta', 'echo']);
      sameRecord((await repository.listAfter('charlie', 1))[0], record('delta', 0));
    },
  },
];
