import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * A service secret: the configured value when there is one, else a random key generated once
 * into DATA_DIR/<fileName> (mode 0600) and read back on later starts. Instances that must agree
 * on it (several behind one load balancer) must be given the configured value.
 */
export function configuredOrGeneratedSecret(configured: string | undefined, dataDir: string, fileName: string): Buffer {
  if (configured !== undefined) return Buffer.from(configured, 'utf8');
  const file = path.join(dataDir, fileName);
  const read = () => Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(48);
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw error;
  }
}
