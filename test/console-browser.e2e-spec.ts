import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ProposalExecutor } from '@app/application';
import { EventSealer } from '@app/persistence';
import { ACCOUNTANT, ADMIN, hostSandbox, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';
import type { Claims } from './support/gateway-keys';

/**
 * The web console in a real browser: Debian's headless Chromium driven by playwright-core (which
 * downloads nothing). Skipped, saying why, only when /usr/bin/chromium is absent; `.ci/run`
 * installs it. With CONSOLE_SCREENSHOTS=write the screenshots go into docs/console/ (the ones
 * docs/console.md shows); otherwise into a temporary directory.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`console browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}
const SHOTS =
  process.env.CONSOLE_SCREENSHOTS === 'write'
    ? path.join(__dirname, '..', 'docs', 'console')
    : fs.mkdtempSync(path.join(os.tmpdir(), 'console-shots-'));

const path_ = (name: string) => path.join(SHOTS, name);

const EMPLOYEE: Claims = { sub: 'ola@demo.no', role: 'employee', permissions: ['solve', 'query', 'facts'] };
const MANAGER: Claims = { sub: 'mona@demo.no', role: 'manager', permissions: ['solve', 'query', 'facts', 'monitor'] };

/** axe-core's browser bundle, evaluated in each page (through the DevTools protocol, so the CSP does not block it). */
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A receipt photo for the screenshots: a PNG drawn from SVG. */
async function receiptPng(merchant: string, amount: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="320">
    <rect width="240" height="320" fill="#fffdf5" stroke="#999"/>
    <text x="20" y="40" font-family="monospace" font-size="16">${merchant}</text>
    <text x="20" y="80" font-family="monospace" font-size="12">Org.nr 987 654 321 MVA</text>
    <text x="20" y="140" font-family="monospace" font-size="12">Varer          ${amount}</text>
    <text x="20" y="160" font-family="monospace" font-size="12">herav MVA 25 %</text>
    <text x="20" y="220" font-family="monospace" font-size="16">SUM NOK ${amount}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

(haveChromium ? describe : describe.skip)('web console in a real browser', () => {
  let hosted: HostedSandbox;
  let database: IsolatedTestDatabase;
  let t: JobsApp;
  let browser: Browser;
  let base: string;
  let company: string;
  let otherCompany: string;

  beforeAll(async () => {
    hosted = await hostSandbox({ seed: 21, companies: 2, entriesPerCompany: 10, invoicesPerCompany: 2 });
    // The executor drains every company's due proposals: this suite gets a database of its own.
    database = await isolatedTestDatabase('console');
    t = await startJobsApp({ hosted, databaseUrl: database.url, env: { PROVIDER_RETRIES: '0' } });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    company = await t.newCompany('web');
    otherCompany = await t.newCompany('web-other');
    await t.connect(company, 'tripletex', 0);
    await t.connect(otherCompany, 'tripletex', 1);
    await t.http.post('/v1/config/context/refresh').set('Authorization', `Bearer ${t.token(company, ADMIN)}`);
    // launch() starts Chromium on a fresh, temporary profile (user data dir) and removes it on close.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await hosted?.close();
    await database?.dispose();
  });

  async function loginLink(who: Claims, forCompany = company): Promise<string> {
    const res = await t.http.post('/v1/console/links').set('Authorization', `Bearer ${t.token(forCompany, who)}`);
    expect(res.status).toBe(200);
    const url = new URL(res.body.url as string);
    return `${base}${url.pathname}${url.search}`;
  }

  async function signedIn(
    who: Claims = ACCOUNTANT,
    forCompany = company,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'nb-NO' });
    const page = await context.newPage();
    await page.goto(await loginLink(who, forCompany));
    // The link's page names whom it signs in; only its button signs in.
    expect(new URL(page.url()).pathname).toBe('/console/login');
    await page.getByRole('button', { name: /^Sign in as / }).click();
    await page.waitForURL((url) => url.pathname === '/console/review');
    return { context, page };
  }

  async function submit(merchant: string, amount: string, forCompany = company): Promise<{ id: string }> {
    const png = await receiptPng(merchant, amount);
    const res = await t.http
      .post('/v1/proposals')
      .set('Authorization', `Bearer ${t.token(forCompany, EMPLOYEE)}`)
      .send({
        kind: 'expense',
        merchant,
        amount,
        currency: 'NOK',
        date: t.clock.now().toISOString().slice(0, 10),
        accountCode: '6800',
        vatRate: '25',
        description: 'Office supplies',
        receipt: { filename: 'receipt.png', contentType: 'image/png', dataBase64: png.toString('base64') },
        thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
        resubmissionOf: null,
      });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  }

  async function status(id: string, forCompany = company): Promise<string> {
    const res = await t.http
      .get(`/v1/proposals/${id}`)
      .set('Authorization', `Bearer ${t.token(forCompany, ACCOUNTANT)}`);
    return res.body.status as string;
  }

  it('logs in with a link, approves with a correction, and the chain shows the booking in the sandbox', async () => {
    const proposal = await submit('Kontorland AS', '1249.50');
    await submit('Rema 1000 Storgata', '312.40');
    const { context, page } = await signedIn();

    const item = page.locator(`li[data-proposal="${proposal.id}"]`);
    await expect(item.locator('h3').textContent()).resolves.toContain('Kontorland AS');
    await expect(item.locator('.amount').textContent()).resolves.toMatch(/1\s249,50/);
    await page.screenshot({ path: path.join(SHOTS, 'review-queue.png'), fullPage: true });

    const accounts = await item
      .locator('select[name="accountCode"] option')
      .evaluateAll((options) => options.map((o) => o.getAttribute('value') ?? ''));
    // 6540 Inventar takes 25 % VAT (6300 is VAT-locked to code 0 in the sandbox's chart).
    const corrected = accounts.find((code) => code === '6540')!;
    expect(corrected).toBeDefined();
    await item.getByLabel('Account').selectOption(corrected);
    await item.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/console\/review\?done=approved/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Approved');

    await t.app.get(ProposalExecutor).drain();
    expect(await status(proposal.id)).toBe('EXECUTED');

    await t.app.get(EventSealer).sealPending({ companyId: company });
    await page.goto(`${base}/console/proposals/${proposal.id}`);
    const chain = await page.locator('ol.chain').textContent();
    expect(chain).toMatch(/Proposed[\s\S]*Approved[\s\S]*Executed/);
    expect(chain).toContain(`${ACCOUNTANT.sub}`);
    expect(chain).toMatch(/via\s+web/);
    expect(chain).toContain('provider Tripletex');
    await expect(page.locator('[data-status]').getAttribute('data-status')).resolves.toBe('EXECUTED');
    await expect(page.locator('[data-chain]').getAttribute('data-chain')).resolves.toBe('verified');
    await expect(
      page.locator('ol.chain > li').evaluateAll((items) => items.map((i) => i.getAttribute('data-link'))),
    ).resolves.toEqual(['verified', 'verified', 'verified']);
    await page.screenshot({ path: path.join(SHOTS, 'proposal.png'), fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/console/review`);
    await page.screenshot({ path: path.join(SHOTS, 'review-queue-phone.png'), fullPage: false });
    await context.close();
  });

  it('rejects with a reason typed in the queue, using the keyboard', async () => {
    const proposal = await submit('Privat Handel', '899.00');
    const { context, page } = await signedIn();
    const item = page.locator(`li[data-proposal="${proposal.id}"]`);
    await item.getByLabel('Reason for rejecting').fill('Private purchase, not a company expense');
    await item.getByLabel('Reason for rejecting').press('Enter');
    await page.waitForURL(/done=rejected/);
    const res = await t.http
      .get(`/v1/proposals/${proposal.id}`)
      .set('Authorization', `Bearer ${t.token(company, ACCOUNTANT)}`);
    expect(res.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'Private purchase, not a company expense' });
    await context.close();
  });

  it('refuses a used link and an expired one', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const link = await loginLink(ACCOUNTANT);
    await page.goto(link);
    await page.getByRole('button', { name: /^Sign in as / }).click();
    await page.waitForURL((url) => url.pathname === '/console/review');

    const other = await browser.newContext();
    const second = await other.newPage();
    const reused = await second.goto(link);
    expect(reused?.status()).toBe(401);
    await expect(second.locator('h1').textContent()).resolves.toContain('does not open the console');
    expect((await second.goto(`${base}/console/review`))?.status()).toBe(401);

    const late = await loginLink(ACCOUNTANT);
    t.clock.advance(5 * 60 * 1000 + 1);
    const expired = await second.goto(late);
    expect(expired?.status()).toBe(401);
    await expect(second.getByRole('alert').textContent()).resolves.toContain('expired');
    await context.close();
    await other.close();
  });

  it("refuses a sign-in posted from another site's page, leaving the link usable", async () => {
    const link = await loginLink(ACCOUNTANT);
    const token = new URL(link).searchParams.get('token')!;
    // Another origin (its own port) whose page posts the attacker's link token to the console.
    const attacker = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(
        `<form method="post" action="${base}/console/login"><input type="hidden" name="token" value="${token}">` +
          '<button type="submit">Win a prize</button></form>',
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      const [posted] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/console/login')),
        page.getByRole('button', { name: 'Win a prize' }).click(),
      ]);
      expect(posted.status()).toBe(403);
      expect((await page.goto(`${base}/console/review`))?.status()).toBe(401);
      // The link was not used: its own page still signs in.
      await page.goto(link);
      await page.getByRole('button', { name: /^Sign in as / }).click();
      await page.waitForURL((url) => url.pathname === '/console/review');
    } finally {
      await context.close();
      await new Promise((resolve) => attacker.close(resolve));
    }
  });

  it('keeps a session of one company away from another company’s proposals', async () => {
    const theirs = await submit('Annen Bedrift AS', '450.00', otherCompany);
    const { context, page } = await signedIn(ACCOUNTANT, company);
    expect(await page.content()).not.toContain('Annen Bedrift AS');
    expect((await page.goto(`${base}/console/proposals/${theirs.id}`))?.status()).toBe(404);
    await page.goto(`${base}/console/review`);
    const csrf = await page.locator('meta[name="csrf-token"]').getAttribute('content');
    const approve = await page.evaluate(
      async ({ id, token }) =>
        (
          await fetch(`/console/proposals/${id}/approve`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ _csrf: token ?? '' }),
          })
        ).status,
      { id: theirs.id, token: csrf },
    );
    expect(approve).toBe(404);
    expect(await status(theirs.id, otherCompany)).toBe('PROPOSED');
    await context.close();
  });

  it('refuses a state-changing request without the CSRF token', async () => {
    const proposal = await submit('Csrf Kiosk', '59.00');
    const { context, page } = await signedIn();
    const refused = await page.evaluate(
      async (id) =>
        (
          await fetch(`/console/proposals/${id}/approve`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: 'accountCode=6800',
          })
        ).status,
      proposal.id,
    );
    expect(refused).toBe(403);
    expect(await status(proposal.id)).toBe('PROPOSED');
    await context.close();
  });

  it('shows an admin the company, patterns, checks, messages and reimbursements pages, each reachable by keyboard', async () => {
    await t.http
      .post('/v1/patterns')
      .set('Authorization', `Bearer ${t.token(company, ADMIN)}`)
      .send({ merchantName: 'Telenor Norge AS', accountCode: '6900', vatRate: '25' });
    const { context, page } = await signedIn(ADMIN);
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus').textContent()).resolves.toBe('Skip to content');
    for (const [path, heading, shot] of [
      // company.png is taken with a mapped employee, below.
      ['/console/company', 'Company', null],
      ['/console/patterns', 'Patterns', 'patterns.png'],
      ['/console/checks?run=missing-receipts', 'Checks', 'checks.png'],
      ['/console/messages', 'Messages', 'messages.png'],
      ['/console/reimbursements', 'Reimbursements', null],
    ] as const) {
      const response = await page.goto(`${base}${path}`);
      expect(response?.status()).toBe(200);
      await expect(page.locator('h1').textContent()).resolves.toBe(heading);
      await expect(page.locator('nav [aria-current="page"]').textContent()).resolves.toBe(heading);
      if (shot) await page.screenshot({ path: path_(shot), fullPage: true });
    }
    await context.close();
  });

  // After the tour of the pages: its screenshot of the patterns page, with suggestions, is the one
  // docs/console.md shows.
  it('reads the history, lists its suggestions on the patterns page, and confirms one into a pattern', async () => {
    const { context, page } = await signedIn(ACCOUNTANT);
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(`${base}/console/patterns`);
    await page.getByRole('button', { name: 'Read the history again' }).click();
    await page.waitForURL(/\/console\/patterns\?done=refreshed/);
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/suggestions? made or refreshed/);

    const listed = await t.http
      .get('/v1/patterns/suggestions?limit=200')
      .set('Authorization', `Bearer ${t.token(company, ACCOUNTANT)}`);
    const ids = listed.body.items.map((p: { id: string }) => p.id);
    expect(ids.length).toBeGreaterThan(1);
    await expect(
      page.locator('li[data-suggestion]').evaluateAll((items) => items.map((i) => i.getAttribute('data-suggestion'))),
    ).resolves.toEqual(ids);
    const fjordkraft = listed.body.items.find((p: { merchantKey: string }) => p.merchantKey === 'fjordkraft');
    const item = page.locator(`li[data-suggestion="${fjordkraft.id}"]`);
    await expect(item.locator('h3').textContent()).resolves.toMatch(/Fjordkraft AS[\s\S]*6340[\s\S]*25 %/);
    await expect(item.locator('.meta').textContent()).resolves.toMatch(/of the merchant’s \d+ bookings/);
    // The window, not the whole page: the suggestions and the first patterns.
    await page.screenshot({ path: path_('patterns.png'), fullPage: false });

    const refused = await page.evaluate(
      async (id) =>
        (
          await fetch('/console/patterns/suggestions/confirm', {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ ids: id }),
          })
        ).status,
      fjordkraft.id as string,
    );
    expect(refused).toBe(403);

    await item.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/console\/patterns\?done=confirmed&count=1/);
    await expect(page.locator(`li[data-suggestion="${fjordkraft.id}"]`).count()).resolves.toBe(0);
    await expect(page.locator(`li[data-pattern="${fjordkraft.id}"] .meta`).textContent()).resolves.toContain(
      `confirmed by ${ACCOUNTANT.sub}`,
    );
    const events = await t.http
      .get(`/v1/events?type=PatternSaved&correlationId=${fjordkraft.id}`)
      .set('Authorization', `Bearer ${t.token(company, ACCOUNTANT)}`);
    expect(events.body.items.at(-1)).toMatchObject({
      actor: ACCOUNTANT.sub,
      channel: 'web',
      data: { cause: 'suggestion_confirmed' },
    });

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.locator('html').evaluate((root) => root.scrollWidth)).resolves.toBeLessThanOrEqual(390);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('lets an admin add, change and remove an employee mapping, and shows what the use case refuses', async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${base}/console/company`);
    const form = page.locator('#employee-form');
    const providerEmployees = await form
      .getByLabel('Employee at the provider')
      .locator('option')
      .evaluateAll((options) => options.map((o) => o.getAttribute('value') ?? '').filter((v) => v !== ''));
    expect(providerEmployees.length).toBeGreaterThan(1);

    await form.getByLabel('Gateway user id').fill('u-lise');
    await form.getByLabel('Email').fill('lise@demo.no');
    await form.getByLabel('Role').selectOption('accountant');
    await form.getByLabel('Chat identities').fill('slack: U0LISE\nfax: 22 33 44 55');
    await form.getByLabel('Employee at the provider').selectOption(providerEmployees[0]);
    await form.getByRole('button', { name: 'Save the mapping' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'Chat identities, line 2: must be one of slack, discord, teams, web, email',
    );
    await expect(form.getByLabel('Chat identities').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(form.getByLabel('Gateway user id').inputValue()).resolves.toBe('u-lise');
    await expect(form.getByLabel('Employee at the provider').inputValue()).resolves.toBe(providerEmployees[0]);

    await form.getByLabel('Chat identities').fill('slack: U0LISE\nteams: lise-teams');
    await form.getByRole('button', { name: 'Save the mapping' }).click();
    await page.waitForURL(/done=employee-saved/);
    const row = page.locator('tr[data-user="u-lise"]');
    await expect(row.textContent()).resolves.toContain('slack: U0LISE, teams: lise-teams');
    await page.screenshot({ path: path_('company.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path_('company-employees-phone.png'), fullPage: false });
    await page.setViewportSize({ width: 1100, height: 900 });

    await row.getByRole('link', { name: 'Change the mapping of u-lise' }).click();
    await expect(form.getByLabel('Email').inputValue()).resolves.toBe('lise@demo.no');
    await form.getByLabel('Role').selectOption('admin');
    await form.getByLabel('Employee at the provider').selectOption(providerEmployees[1]);
    await form.getByRole('button', { name: 'Save the mapping' }).click();
    await page.waitForURL(/done=employee-saved/);
    const api = (method: 'get', userId: string) =>
      t.http[method](`/v1/config/employees/${userId}`).set('Authorization', `Bearer ${t.token(company, ADMIN)}`);
    expect((await api('get', 'u-lise')).body).toMatchObject({
      email: 'lise@demo.no',
      role: 'admin',
      externalIdentities: [
        { channel: 'slack', externalId: 'U0LISE' },
        { channel: 'teams', externalId: 'lise-teams' },
      ],
      providerEmployeeId: providerEmployees[1],
    });

    const withoutToken = await page.evaluate(
      async () =>
        (
          await fetch('/console/company/employees/remove', {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: 'userId=u-lise',
          })
        ).status,
    );
    expect(withoutToken).toBe(403);
    expect((await api('get', 'u-lise')).status).toBe(200);

    await page.locator('tr[data-user="u-lise"]').getByRole('button', { name: 'Remove the mapping of u-lise' }).click();
    await page.waitForURL(/done=employee-removed/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('The employee mapping was removed.');
    expect(await page.locator('tr[data-user="u-lise"]').count()).toBe(0);
    expect((await api('get', 'u-lise')).status).toBe(404);
    await context.close();
  });

  it('fits every page a role may open into a 390 px phone, shows only those in the nav, and axe finds nothing', async () => {
    const first = await submit('Kontorrekvisita Storleverandøren Vestlandet AS', '2490.00');
    const twin = await submit('Kontorrekvisita Storleverandøren Vestlandet AS', '2490.00');
    // Long values without a place to break: an email and a chat identity in the employee mapping.
    const mapped = await t.http
      .put('/v1/config/employees/u-kristoffer-langnavn-lindqvist-berg')
      .set('Authorization', `Bearer ${t.token(company, ADMIN)}`)
      .send({
        email: 'kristoffer.langnavn-lindqvist.berg@regnskapsbyraet-vestlandet.no',
        role: 'accountant',
        externalIdentities: [{ channel: 'slack', externalId: 'U0123456789ABCDEFGHIJKLMNOPQRSTUV' }],
      });
    expect(mapped.status).toBe(201);
    const roles: readonly (readonly [Claims, readonly string[]])[] = [
      [ACCOUNTANT, ['Review', 'Patterns', 'Checks', 'Reimbursements', 'Messages']],
      [ADMIN, ['Review', 'Patterns', 'Company', 'Checks', 'Reimbursements', 'Messages']],
      [MANAGER, ['Review', 'Checks', 'Messages']],
    ];
    const refusals: Record<string, { path: string; words: RegExp }> = {
      Company: { path: '/console/company', words: /Only an administrator can change the company’s settings/ },
      Patterns: { path: '/console/patterns', words: /Only an accountant or an administrator can/ },
      Reimbursements: { path: '/console/reimbursements', words: /Only an accountant or an administrator can/ },
    };
    const problems: string[] = [];
    const missing: string[] = [];

    /** The page as it is now: no wider than the phone, and no axe-core violation. */
    async function inspect(page: Page, name: string): Promise<void> {
      const width = await page.locator('html').evaluate((root) => root.scrollWidth);
      if (width > 390) problems.push(`${name}: ${width} px wide`);
      await page.evaluate(AXE_SOURCE);
      const violations = (await page.evaluate(
        `axe.run().then((result) => result.violations.map((v) =>
          v.id + ' (' + v.help + ') at ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
      )) as string[];
      problems.push(...violations.map((v) => `${name}: ${v}`));
    }

    for (const [who, nav] of roles) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'nb-NO' });
      const page = await context.newPage();
      page.on('response', (r) => {
        if (r.status() === 404) missing.push(r.url());
      });
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) problems.push(`${who.role}: ${message.text()}`);
      });
      await page.goto(await loginLink(who));
      await inspect(page, `${who.role} sign-in`);
      await page.getByRole('button', { name: /^Sign in as / }).click();
      await page.waitForURL((url) => url.pathname === '/console/review');

      const links = await page
        .locator('nav[aria-label="Console"] a')
        .evaluateAll((as) => as.map((a) => ({ label: a.textContent?.trim() ?? '', href: a.getAttribute('href')! })));
      expect(links.map((link) => link.label)).toEqual(nav);
      const icon = await page.locator('link[rel="icon"]').getAttribute('href');
      expect(icon).not.toBeNull();
      expect((await page.request.get(`${base}${icon}`)).status()).toBe(200);
      expect((await page.request.get(`${base}/favicon.ico`)).status()).toBe(200);

      for (const path of [
        ...links.map((link) => link.href),
        '/console/checks?run=missing-receipts',
        `/console/proposals/${twin.id}`,
      ]) {
        const response = await page.goto(`${base}${path}`);
        expect({ path, status: response?.status() }).toEqual({ path, status: 200 });
        await inspect(page, `${who.role} ${path}`);
      }
      // The twin's page names the first one as a link to it.
      const named = page.locator(`ul.reasons a[href="/console/proposals/${first.id}"]`);
      expect(await named.count()).toBe(1);

      for (const [section, refusal] of Object.entries(refusals)) {
        if (nav.includes(section)) continue;
        const response = await page.goto(`${base}${refusal.path}`);
        expect(response?.status()).toBe(403);
        const text = await page.locator('main').innerText();
        expect(text).toMatch(refusal.words);
        expect(text).not.toMatch(/permission "|token|role_insufficient|permission_denied/);
        await inspect(page, `${who.role} ${refusal.path} (refused)`);
      }

      await page.goto(`${base}/console/review`);
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForLoadState();
      await inspect(page, `${who.role} logged out`);
      await context.close();
    }
    expect(problems).toEqual([]);
    expect(missing).toEqual([]);
  }, 180_000);

  it('gives an employee no link', async () => {
    const res = await t.http.post('/v1/console/links').set('Authorization', `Bearer ${t.token(company, EMPLOYEE)}`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('role_insufficient');
  });
});
