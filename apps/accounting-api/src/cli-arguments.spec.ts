import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli } from './cli';

/** The CLI's argument checks, which refuse before a command touches configuration or the database. */
describe('the CLI arguments', () => {
  const noConfig = () => {
    throw new Error('configuration read: the arguments were accepted');
  };
  let stderr: jest.SpyInstance;
  let stdout: jest.SpyInstance;

  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => jest.restoreAllMocks());

  const parse = (...args: string[]) => buildCli(noConfig, () => undefined).parseAsync(['node', 'cli', ...args]);

  it('prints the package version with --version', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
      version: string;
    };

    await expect(parse('--version')).rejects.toMatchObject({ code: 'commander.version' });
    expect(stdout.mock.calls.join('')).toBe(`${version}\n`);
  });

  it('refuses a token whose sub is not an email, as the service would', async () => {
    await expect(parse('token', '--company', 'demo', '--role', 'employee', '--sub', 'kari')).rejects.toMatchObject({
      code: 'commander.invalidArgument',
    });
    expect(stderr.mock.calls.join('')).toContain('must be an email address');
  });

  it('takes an email as sub (and only then reads the configuration)', async () => {
    await expect(parse('token', '--company', 'demo', '--role', 'employee', '--sub', 'kari@demo.no')).rejects.toThrow(
      'configuration read',
    );
  });
});
