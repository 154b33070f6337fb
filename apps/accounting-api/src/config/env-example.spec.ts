import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENV_VARIABLES } from './env.schema';

/** The variables .env.example names, set (`KEY=`) or commented out (`# KEY=`). */
function exampleVariables(): string[] {
  const text = fs.readFileSync(path.join(__dirname, '../../../../.env.example'), 'utf8');
  return [...text.matchAll(/^(?:# ?)?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
}

describe('.env.example', () => {
  it('lists exactly the variables the environment schema reads, each once', () => {
    const listed = exampleVariables();

    expect([...listed].sort()).toEqual([...ENV_VARIABLES].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });
});
