import type TestAgent from 'supertest/lib/agent';

/** What a browser does with a console login link: opens its page, then presses "Sign in". */
export interface ConsoleSignIn {
  /** The session cookie ("name=value"). */
  readonly cookie: string;
  /** Where the sign-in sent the browser. */
  readonly location: string;
}

/**
 * Opens a console login link (absolute URL) and posts the page's sign-in form as the browser
 * would, from the service's own page (Sec-Fetch-Site: same-origin).
 */
export async function signInWithLink(http: TestAgent, link: string): Promise<ConsoleSignIn> {
  const url = new URL(link);
  const page = await http.get(`${url.pathname}${url.search}`);
  if (page.status !== 200) throw new Error(`the login link's page answered ${page.status}`);
  const form: Record<string, string> = {};
  for (const [, name, value] of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    form[name] = value;
  }
  const res = await http.post('/console/login').set('Sec-Fetch-Site', 'same-origin').type('form').send(form);
  if (res.status !== 303) throw new Error(`signing in answered ${res.status}`);
  const cookie = (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
  return { cookie, location: res.headers.location as string };
}
