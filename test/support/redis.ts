import { spawnSync } from 'node:child_process';

/** The Redis the tests of the Redis-backed rate limit use (the local one unless told). */
export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether a Redis answers PING at REDIS_TEST_URL, asked synchronously (in a child process) so that a
 * suite can choose `describe` or `describe.skip` when it is defined.
 */
export function redisAnswers(url = REDIS_TEST_URL): boolean {
  const { hostname, port } = new URL(url);
  const probe = `
    const socket = require('node:net').connect(${Number(port || 6379)}, ${JSON.stringify(hostname)});
    socket.on('connect', () => socket.write('PING\\r\\n'));
    socket.on('data', (data) => process.exit(String(data).startsWith('+PONG') ? 0 : 1));
    socket.on('error', () => process.exit(1));
    setTimeout(() => process.exit(1), 1000);`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 3000 }).status === 0;
}
