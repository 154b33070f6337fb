import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SealedSecret } from '@app/domain';
import { EnvelopeTokenVault } from './envelope-token-vault';
import { InMemoryWrappedDekRepository } from '@app/testing';
import { Kms, WrappedDek } from './ports/kms.port';
import { LocalKeyringKms } from './local-keyring.kms';
import { rewrapAll, rotateKek } from './rewrap';
import { WrappedDekRecord } from './ports/wrapped-dek-repository.port';

const COMPANIES = ['acme', 'bravo', 'charlie', 'delta', 'echo'];

describe('KEK rotation', () => {
  let directory: string;
  let kms: LocalKeyringKms;
  let deks: InMemoryWrappedDekRepository;
  let vault: EnvelopeTokenVault;
  let sealed: Map<string, SealedSecret>;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'rewrap-'));
    kms = new LocalKeyringKms(join(directory, 'keyring.json'));
    deks = new InMemoryWrappedDekRepository();
    vault = new EnvelopeTokenVault(kms, deks);
    sealed = new Map();
    for (const company of COMPANIES) {
      sealed.set(company, await vault.seal(company, 'fiken', 'refresh_token', `refresh-${company}`));
    }
  });

  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const wrappings = async (): Promise<WrappedDekRecord[]> => deks.listAfter(null, 1000);

  it('re-wraps every DEK under the new KEK version, changing the wrapped bytes but not the DEK', async () => {
    const before = await wrappings();
    const dekBefore = await kms.unwrap(before[0], before[0].companyId);
    const result = await rotateKek(kms, deks, { pageSize: 2 });
    expect(result).toEqual({ kekId: 'local:v2', total: 5, rewrapped: 5, alreadyCurrent: 0, skipped: 0, failed: [] });
    const after = await wrappings();
    for (const [index, record] of after.entries()) {
      expect(record.kekId).toBe('local:v2');
      expect(Buffer.from(record.wrapped).equals(Buffer.from(before[index].wrapped))).toBe(false);
    }
    expect((await kms.unwrap(after[0], after[0].companyId)).equals(dekBefore)).toBe(true);
  });

  it('keeps every token readable, from the ciphertexts sealed before the rotation', async () => {
    await rotateKek(kms, deks);
    await rotateKek(kms, deks);
    for (const company of COMPANIES) {
      await expect(vault.open(company, 'fiken', 'refresh_token', sealed.get(company)!)).resolves.toBe(
        `refresh-${company}`,
      );
    }
  });

  it('works without the old KEK once every DEK is re-wrapped', async () => {
    await rotateKek(kms, deks);
    const current = (await wrappings())[0];
    const onlyNewKek = new (class extends Kms {
      wrap = (dek: Uint8Array, company: string) => kms.wrap(dek, company);
      currentKekId = () => kms.currentKekId();
      unwrap = (wrapped: WrappedDek, company: string) =>
        wrapped.kekId === 'local:v2' ? kms.unwrap(wrapped, company) : Promise.reject(new Error('old KEK is gone'));
    })();
    await expect(
      new EnvelopeTokenVault(onlyNewKek, deks).open(
        current.companyId,
        'fiken',
        'refresh_token',
        sealed.get(current.companyId)!,
      ),
    ).resolves.toBe(`refresh-${current.companyId}`);
  });

  it('leaves DEKs already under the current KEK alone, so it can simply be run again', async () => {
    await rotateKek(kms, deks);
    const once = await wrappings();
    await expect(rewrapAll(kms, deks)).resolves.toEqual({
      kekId: 'local:v2',
      total: 5,
      rewrapped: 0,
      alreadyCurrent: 5,
      skipped: 0,
      failed: [],
    });
    expect(await wrappings()).toEqual(once);
    await expect(rewrapAll(kms, deks, { force: true })).resolves.toMatchObject({ rewrapped: 5, alreadyCurrent: 0 });
  });

  it('finishes a rotation interrupted part-way', async () => {
    await kms.rotate();
    const first = (await wrappings())[0];
    await deks.replaceWrapping(
      first.companyId,
      first,
      await kms.wrap(await kms.unwrap(first, first.companyId), first.companyId),
    );
    await expect(rewrapAll(kms, deks)).resolves.toMatchObject({ total: 5, rewrapped: 4, alreadyCurrent: 1 });
  });

  it('does not resurrect a key destroyed while the rotation runs', async () => {
    await kms.rotate();
    const racing = new (class extends InMemoryWrappedDekRepository {
      override async replaceWrapping(companyId: string, previous: WrappedDek, next: WrappedDek): Promise<boolean> {
        if (companyId === 'charlie') await super.delete('charlie');
        return super.replaceWrapping(companyId, previous, next);
      }
    })();
    for (const record of await wrappings()) await racing.insertIfAbsent(record);
    await expect(rewrapAll(kms, racing)).resolves.toMatchObject({ rewrapped: 4, skipped: 1 });
    expect(await racing.find('charlie')).toBeNull();
  });

  it('reports companies whose DEK cannot be unwrapped and re-wraps the others', async () => {
    const bravo = (await deks.find('bravo'))!;
    await deks.replaceWrapping('bravo', bravo, { ...bravo, wrapped: Buffer.alloc(bravo.wrapped.length) });
    const result = await rotateKek(kms, deks);
    expect(result).toMatchObject({ total: 5, rewrapped: 4, failed: ['bravo'] });
  });
});
