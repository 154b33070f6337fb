import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { SecretUnreadable } from '@app/domain';
import { decrypt, encrypt, encryptWithIv, packBox, unpackBox } from './aes-gcm';
import { encodeAdditionalData, tokenAdditionalData } from './additional-data';

interface WycheproofTest {
  tcId: number;
  comment: string;
  key: string;
  iv: string;
  aad: string;
  msg: string;
  ct: string;
  tag: string;
  result: 'valid' | 'invalid' | 'acceptable';
}

interface WycheproofGroup {
  keySize: number;
  ivSize: number;
  tagSize: number;
  tests: WycheproofTest[];
}

/** Vendored with their licence; test/fixtures/wycheproof/README.md records the source and digest. */
const VECTORS = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'wycheproof', 'aes_gcm_test.json');
const VECTORS_SHA256 = '985e5ecc172e181eaf49e89508b9470dcf478002eb7e8559c707eb42dc97dfe7';

const vectorsFile = readFileSync(VECTORS);
const groups = (JSON.parse(vectorsFile.toString('utf8')) as { testGroups: WycheproofGroup[] }).testGroups;
const hex = (text: string): Buffer => Buffer.from(text, 'hex');
const isVaultParameters = (group: WycheproofGroup): boolean =>
  group.keySize === 256 && group.ivSize === 96 && group.tagSize === 128;
const label = (test: WycheproofTest): string => `tcId ${test.tcId}${test.comment ? ` (${test.comment})` : ''}`;

describe('AES-256-GCM against the Wycheproof vectors', () => {
  const vault = groups.filter(isVaultParameters).flatMap((group) => group.tests);
  const others = groups
    .filter((group) => !isVaultParameters(group))
    .flatMap((group) => group.tests.map((test) => ({ group, test })));

  it('reads the vendored file, byte for byte (sha256)', () => {
    expect(createHash('sha256').update(vectorsFile).digest('hex')).toBe(VECTORS_SHA256);
  });

  it('has the vectors it is meant to check', () => {
    expect(vault.filter((test) => test.result === 'valid').length).toBeGreaterThanOrEqual(39);
    expect(vault.filter((test) => test.result === 'invalid').length).toBeGreaterThanOrEqual(27);
    expect(others.length).toBeGreaterThan(200);
  });

  it.each(vault.filter((test) => test.result === 'valid').map((test) => [label(test), test] as const))(
    'decrypts and re-encrypts valid vector %s exactly',
    (_name, test) => {
      const box = { iv: hex(test.iv), ciphertext: hex(test.ct), tag: hex(test.tag) };
      expect(decrypt(hex(test.key), box, hex(test.aad)).toString('hex')).toBe(test.msg);
      const encrypted = encryptWithIv(hex(test.key), hex(test.iv), hex(test.msg), hex(test.aad));
      expect(Buffer.from(encrypted.ciphertext).toString('hex')).toBe(test.ct);
      expect(Buffer.from(encrypted.tag).toString('hex')).toBe(test.tag);
    },
  );

  it.each(vault.filter((test) => test.result !== 'valid').map((test) => [label(test), test] as const))(
    'refuses invalid vector %s',
    (_name, test) => {
      const box = { iv: hex(test.iv), ciphertext: hex(test.ct), tag: hex(test.tag) };
      expect(() => decrypt(hex(test.key), box, hex(test.aad))).toThrow(SecretUnreadable);
    },
  );

  it.each(
    others.map(
      ({ group, test }) =>
        [`${label(test)}, key ${group.keySize} iv ${group.ivSize} tag ${group.tagSize}`, test] as const,
    ),
  )('refuses vector %s with parameters other than the vault’s', (_name, test) => {
    const box = { iv: hex(test.iv), ciphertext: hex(test.ct), tag: hex(test.tag) };
    expect(() => decrypt(hex(test.key), box, hex(test.aad))).toThrow(SecretUnreadable);
  });
});

describe('AES-256-GCM in the vault', () => {
  const key = randomBytes(32);
  const aad = tokenAdditionalData('acme', 'tripletex', 'employee_token');
  const message = Buffer.from('employee-token-7f3a9c', 'utf8');

  it('round-trips and uses a fresh 96-bit IV for every encryption', () => {
    const first = encrypt(key, message, aad);
    const second = encrypt(key, message, aad);
    expect(first.iv).toHaveLength(12);
    expect(first.tag).toHaveLength(16);
    expect(Buffer.from(first.iv).equals(Buffer.from(second.iv))).toBe(false);
    expect(Buffer.from(first.ciphertext).equals(Buffer.from(second.ciphertext))).toBe(false);
    expect(decrypt(key, first, aad).equals(message)).toBe(true);
  });

  it('refuses additional data naming another company, provider or purpose', () => {
    const box = encrypt(key, message, aad);
    for (const other of [
      tokenAdditionalData('acme2', 'tripletex', 'employee_token'),
      tokenAdditionalData('acme', 'fiken', 'employee_token'),
      tokenAdditionalData('acme', 'tripletex', 'consumer_token'),
      Buffer.alloc(0),
    ]) {
      expect(() => decrypt(key, box, other)).toThrow(SecretUnreadable);
    }
  });

  it('refuses a truncated or extended tag', () => {
    const box = encrypt(key, message, aad);
    for (const length of [0, 4, 8, 12, 13, 15]) {
      expect(() => decrypt(key, { ...box, tag: box.tag.subarray(0, length) }, aad)).toThrow(SecretUnreadable);
    }
    expect(() => decrypt(key, { ...box, tag: Buffer.concat([box.tag, Buffer.of(0)]) }, aad)).toThrow(SecretUnreadable);
  });

  it('refuses a truncated packed box whatever is cut off', () => {
    const packed = packBox(encrypt(key, message, aad));
    for (let length = 0; length < packed.length; length += 1) {
      expect(() => decrypt(key, unpackBox(packed.subarray(0, length)), aad)).toThrow(SecretUnreadable);
    }
  });

  it('refuses a single flipped bit anywhere in IV, ciphertext or tag', () => {
    const packed = packBox(encrypt(key, message, aad));
    for (let bit = 0; bit < packed.length * 8; bit += 1) {
      const tampered = Buffer.from(packed);
      tampered[bit >> 3] ^= 1 << (bit & 7);
      expect(() => decrypt(key, unpackBox(tampered), aad)).toThrow(SecretUnreadable);
    }
  });

  it('refuses a single flipped bit in the additional data or the key', () => {
    const box = encrypt(key, message, aad);
    for (let bit = 0; bit < aad.length * 8; bit += 1) {
      const tampered = Buffer.from(aad);
      tampered[bit >> 3] ^= 1 << (bit & 7);
      expect(() => decrypt(key, box, tampered)).toThrow(SecretUnreadable);
    }
    for (let bit = 0; bit < key.length * 8; bit += 1) {
      const tampered = Buffer.from(key);
      tampered[bit >> 3] ^= 1 << (bit & 7);
      expect(() => decrypt(tampered, box, aad)).toThrow(SecretUnreadable);
    }
  });

  it('refuses keys and IVs of any other length', () => {
    const box = encrypt(key, message, aad);
    for (const length of [0, 16, 24, 31, 33, 64]) {
      expect(() => decrypt(randomBytes(length), box, aad)).toThrow(SecretUnreadable);
      expect(() => encrypt(randomBytes(length), message, aad)).toThrow(RangeError);
    }
    for (const length of [0, 8, 11, 13, 16]) {
      expect(() => decrypt(key, { ...box, iv: randomBytes(length) }, aad)).toThrow(SecretUnreadable);
    }
  });
});

describe('additional data encoding', () => {
  it('is unambiguous: moving bytes between fields changes the encoding', () => {
    expect(encodeAdditionalData(['ab', 'c']).equals(encodeAdditionalData(['a', 'bc']))).toBe(false);
    expect(encodeAdditionalData(['a', '']).equals(encodeAdditionalData(['a']))).toBe(false);
    expect(
      tokenAdditionalData('a|b', 'c', 'access_token').equals(tokenAdditionalData('a', 'b|c', 'access_token')),
    ).toBe(false);
  });

  it('length-prefixes every field with four big-endian bytes', () => {
    expect(encodeAdditionalData(['hi', 'ø']).toString('hex')).toBe('00000002' + '6869' + '00000002' + 'c3b8');
  });
});
