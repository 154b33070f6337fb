/** Seeded credentials. They only open the sandbox; no real provider accepts them. */

/** The Tripletex consumer token (the integrator's token) that the sandbox recognises. */
export const SANDBOX_TRIPLETEX_CONSUMER_TOKEN = 'sandbox-tripletex-consumer-token';

/** Employee token of Tripletex sandbox company 0 ("Demo Tripletex AS"). */
export const SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN = 'sandbox-tripletex-employee-token-0';

/** The Fiken OAuth client registered in the sandbox. */
export const SANDBOX_FIKEN_CLIENT_ID = 'sandbox-fiken-client';
/** Like real client secrets it holds characters URL-encoding would change: Basic credentials are compared as sent. */
export const SANDBOX_FIKEN_CLIENT_SECRET = 'sandbox-fiken-client-secret+/=';

/** Slug of Fiken sandbox company 0. */
export const SANDBOX_FIKEN_DEMO_SLUG = 'demo-fiken-as';

/** Employee token of Tripletex sandbox company `index`. */
export function tripletexEmployeeToken(index: number): string {
  return `sandbox-tripletex-employee-token-${index}`;
}

/** Company index named by a sandbox employee token, or `undefined`. */
export function tripletexCompanyIndexOfToken(token: string): number | undefined {
  const match = /^sandbox-tripletex-employee-token-(\d+)$/.exec(token);
  return match ? Number(match[1]) : undefined;
}

/** Slug of Fiken sandbox company `index`. */
export function fikenCompanySlug(index: number): string {
  return index === 0 ? SANDBOX_FIKEN_DEMO_SLUG : `sandkasse-${String(index).padStart(4, '0')}-as`;
}

/** Company index named by a sandbox slug, or `undefined`. */
export function fikenCompanyIndexOfSlug(slug: string): number | undefined {
  if (slug === SANDBOX_FIKEN_DEMO_SLUG) return 0;
  const match = /^sandkasse-(\d{4,})-as$/.exec(slug);
  if (!match) return undefined;
  const index = Number(match[1]);
  return index > 0 && fikenCompanySlug(index) === slug ? index : undefined;
}
