import type { INestApplication } from '@nestjs/common';
import { ConsoleAccess } from '@app/application';
import { ROLE_PERMISSIONS, type Role } from '@app/domain';
import type { AppConfig } from '../config/app-config';
import { consoleLoginUrl } from './console-login.controller';

const DEMO_PEOPLE: ReadonlyArray<{ sub: string; role: Role }> = [
  { sub: 'ola@demo.no', role: 'accountant' },
  { sub: 'admin@demo.no', role: 'admin' },
];

/**
 * The lines `npm start` prints when it seeded the demo company: a console login link for its
 * accountant and its admin (each valid once, for 5 minutes), and how to get another.
 */
export async function demoConsoleLinks(app: INestApplication, config: AppConfig): Promise<string[]> {
  const access = app.get(ConsoleAccess);
  const lines = ['  Open the web console (open a link, then press "Sign in"; each works once, for 5 minutes):'];
  for (const person of DEMO_PEOPLE) {
    const link = await access.issueLink({
      actor: person.sub,
      company: 'demo',
      channel: 'web',
      role: person.role,
      permissions: [...ROLE_PERMISSIONS[person.role]],
      tokenExpiresAt: new Date(),
    });
    lines.push(`    ${person.role.padEnd(10)} ${consoleLoginUrl(config.publicUrl, link.secret)}`);
  }
  lines.push('    another: npm run -s cli -- console link --company demo --role accountant --sub ola@demo.no');
  return lines;
}
