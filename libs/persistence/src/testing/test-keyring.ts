import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EntityManager } from 'typeorm';
import { LocalKeyringKms } from '@app/vault';
import { EventChainKeys } from '../event-store/event-chain-keys';

/**
 * The KEK keyring every test that seals or verifies the shared test database's hash chain uses.
 * The chain key is wrapped once, by whichever test needs it first, and a test database outlives
 * the run (CI's does not, a developer's does): so the keyring's one KEK is derived from a fixed
 * label, the same in every run and every process, and tests never rotate it (`kek rotate` tests
 * use a keyring of their own). Written with mode 0600, as LocalKeyringKms demands.
 */
function testKeyringPath(): string {
  const file = path.join(os.tmpdir(), `accounting-api-test-keyring-${os.userInfo().uid}`, 'keyring.json');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const kek = createHash('sha256').update('accounting-api test keyring: never use outside tests').digest('base64');
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temporary, JSON.stringify({ current: 1, keys: { '1': kek } }), { mode: 0o600 });
    fs.renameSync(temporary, file); // every writer writes the same bytes: whoever renames last changes nothing
  }
  return file;
}

/** The `KEK_SOURCE` of test apps and CLI runs that seal or verify the shared test database. */
export function testKekSource(): string {
  return `local:${testKeyringPath()}`;
}

/** The chain keys of a test database, under the test keyring. */
export function testEventChainKeys(manager: EntityManager): EventChainKeys {
  return new EventChainKeys(manager, new LocalKeyringKms(testKeyringPath()));
}
