import {
  createSandbox,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
  type RunningSandbox,
  type Sandbox,
} from '@app/sandbox';
import {
  ApiCallLog,
  Clock,
  type BookingLine,
  type ExpenseBooking,
  type Posting,
  type ProviderContext,
} from '@app/domain';
import { aBooking, checkProviderContract } from '@app/testing';
import type { TripletexConnection } from './tripletex-connection';
import { TripletexProvider } from './tripletex.provider';

const TODAY = '2026-11-27';

class FixedClock extends Clock {
  now(): Date {
    return new Date(`${TODAY}T10:00:00Z`);
  }
}

const PATIENT = { timeoutMs: 3_000, retries: 2, initialBackoffMs: 5, maxBackoffMs: 20, breakerThreshold: 1_000 };
const SUPPLIER = { name: 'Kontormøbler Nord AS', organizationNumber: '914778271', bankAccount: '86011117947' };

/** Each case of the bookkeeping table booked through the adapter and read back from Tripletex's own ledger. */
describe('TripletexProvider books what an accountant would sign (sandbox ledger read back)', () => {
  checkProviderContract();

  let sandbox: Sandbox;
  let running: RunningSandbox;
  let conn: TripletexConnection;
  let tx: TripletexProvider;
  let context: ProviderContext;
  let sequence = 0;

  beforeAll(async () => {
    sandbox = createSandbox({
      seed: 5,
      ledgerEndDate: TODAY,
      now: () => new Date(`${TODAY}T10:00:00Z`),
      companies: 1,
      entriesPerCompany: 60,
      invoicesPerCompany: 10,
    });
    running = await sandbox.start(0, '127.0.0.1');
  });

  afterAll(async () => {
    await running.close();
  });

  beforeEach(async () => {
    sandbox.control.reset();
    conn = {
      provider: 'tripletex',
      companyId: 'demo',
      baseUrl: running.tripletexApi,
      credentials: { version: 'connected-1', employeeToken: async () => SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN },
    };
    tx = new TripletexProvider(
      { consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN, settleBeforeLookupMs: 10, resilience: PATIENT },
      new FixedClock(),
    );
    context = await tx.fetchContext(conn);
  });

  const line = (
    accountCode: string,
    vatRate: string,
    vatCode: string | null,
    grossAmount: number,
    grossAmountNok = grossAmount,
    description: string | null = null,
  ): BookingLine => ({ accountCode, vatRate, vatCode, grossAmount, grossAmountNok, description });

  function booking(fields: Partial<ExpenseBooking> & Pick<ExpenseBooking, 'merchant' | 'grossAmount'>): ExpenseBooking {
    const main = fields.lines?.[0];
    return aBooking({
      reference: `0190f1b2-7c3d-7e4f-8a9b-${String(++sequence).padStart(12, '0')}`,
      date: TODAY,
      description: null,
      accountCode: main?.accountCode ?? '6800',
      vatRate: main?.vatRate ?? '25',
      currency: 'NOK',
      amountNok: null,
      paymentAccount: '1920',
      ...fields,
    });
  }

  async function balances(): Promise<Map<string, number>> {
    return new Map((await tx.balances(conn, TODAY)).map((b) => [b.code, b.balance]));
  }

  /** Books, then reads the voucher's postings back and what each account's balance moved by. */
  async function bookAndReadBack(
    expense: ExpenseBooking,
  ): Promise<{ postings: Posting[]; moved: Record<string, number>; bookingId: string }> {
    const before = await balances();
    const { bookingId } = await tx.bookExpense(conn, expense);
    const postings = await tx.bookedPostings(conn, bookingId);
    const after = await balances();
    const moved: Record<string, number> = {};
    for (const code of new Set([...before.keys(), ...after.keys()])) {
      const delta = (after.get(code) ?? 0) - (before.get(code) ?? 0);
      if (delta !== 0) moved[code] = delta;
    }
    expect(postings.reduce((sum, p) => sum + p.amount, 0)).toBe(0);
    return { postings, moved, bookingId };
  }

  /** The voucher's type as Tripletex's own `GET /ledger/voucher/{id}` answers it (null: none). */
  async function voucherTypeOf(bookingId: string): Promise<unknown> {
    const create = new URL(`${running.tripletexApi}/token/session/:create`);
    create.search = new URLSearchParams({
      consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
      employeeToken: SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
      expirationDate: '2026-11-28',
    }).toString();
    const session = (await (await fetch(create, { method: 'PUT' })).json()) as { value: { token: string } };
    const response = await fetch(`${running.tripletexApi}/ledger/voucher/${bookingId}?fields=voucherType(id,name)`, {
      headers: { Authorization: `Basic ${Buffer.from(`0:${session.value.token}`).toString('base64')}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { value: { voucherType: unknown } }).value.voucherType;
  }

  /** The postings as [account, øre, VAT code, generated], the way docs/bookkeeping.md tabulates them. */
  const rows = (postings: Posting[]) => postings.map((p) => [p.accountCode, p.amount, p.vatCode, p.generated]);

  describe('the context', () => {
    it("keeps each account's rules and each VAT type's standard code", () => {
      const rules = (code: string) => context.accounts.find((a) => a.code === code)?.rules;
      expect(rules('6300')).toMatchObject({ lockedVatCode: '0', legalVatCodes: ['0'] });
      expect(rules('2910')).toMatchObject({ ledgerType: 'employee', inactive: false });
      expect(rules('2400')).toMatchObject({ ledgerType: 'supplier' });
      expect(rules('7320')).toMatchObject({ requiresDepartment: true, lockedVatCode: null });
      expect(rules('6540')).toMatchObject({ ledgerType: 'general', lockedVatCode: null, requiresDepartment: false });
      expect(rules('6540')?.legalVatCodes).toEqual(expect.arrayContaining(['0', '1', '11', '13', '86', '88']));
      expect(rules('6100')).toMatchObject({ inactive: true });
      expect(context.accounts.find((a) => a.code === '1930')?.name).toBe('Firmakort');
      const codes = context.vatTypes.map((v) => v.standardCode);
      expect(codes).toEqual(expect.arrayContaining(['0', '1', '11', '12', '13', '86', '88']));
      expect(context.vatTypes.every((v) => v.standardCode === v.code)).toBe(true);
    });
  });

  describe('voucher types', () => {
    const typeNamed = (name: string) => context.voucherTypes.find((type) => type.name === name);

    it("reads the company's voucher types with the context", () => {
      expect(context.voucherTypes.map((type) => type.name)).toEqual(
        expect.arrayContaining(['Utgående faktura', 'Leverandørfaktura', 'Ansattutlegg', 'Reiseregning']),
      );
    });

    it('refuses for good a supplier invoice from a supplier inactive in Tripletex', async () => {
      const [inactive] = context.inactiveSuppliers;
      expect(inactive).toBeDefined();
      const attempt = tx.bookExpense(
        conn,
        booking({
          kind: 'supplier_invoice',
          paidWith: null,
          merchant: inactive.name,
          grossAmount: 50_000,
          paymentAccount: '2400',
          supplier: {
            name: inactive.name,
            organizationNumber: inactive.organizationNumber,
            bankAccount: null,
            kid: null,
          },
          invoiceNumber: 'F-78',
          dueDate: '2026-12-11',
          lines: [line('6540', '25', '1', 50_000)],
        }),
      );
      await expect(attempt).rejects.toMatchObject({
        reason: 'rejected',
        transient: false,
        message: expect.stringContaining(
          `supplier ${inactive.organizationNumber} (${inactive.name}) is inactive in Tripletex`,
        ),
      });
    });

    it('files a supplier invoice as "Leverandørfaktura" and an employee\'s outlay as "Ansattutlegg", read back', async () => {
      const log = new ApiCallLog();
      const invoice = await tx.bookExpense(
        conn,
        booking({
          kind: 'supplier_invoice',
          paidWith: null,
          merchant: SUPPLIER.name,
          grossAmount: 50_000,
          paymentAccount: '2400',
          supplier: { ...SUPPLIER, kid: null },
          invoiceNumber: 'F-77',
          dueDate: '2026-12-11',
          lines: [line('6540', '25', '1', 50_000)],
          voucherTypes: context.voucherTypes,
        }),
        { recorder: log },
      );
      const employee = context.employees[0];
      const outlay = await tx.bookExpense(
        conn,
        booking({
          merchant: 'Rema 1000',
          grossAmount: 11_500,
          paidWith: 'employee',
          paymentAccount: '2910',
          employee: { providerId: employee.id, name: 'ignored', email: employee.email ?? 'x@y.no' },
          lines: [line('5915', '15', '11', 11_500)],
          voucherTypes: context.voucherTypes,
        }),
        { recorder: log },
      );

      expect(await voucherTypeOf(invoice.bookingId)).toEqual({
        id: Number(typeNamed('Leverandørfaktura')?.id),
        name: 'Leverandørfaktura',
      });
      expect(await voucherTypeOf(outlay.bookingId)).toEqual({
        id: Number(typeNamed('Ansattutlegg')?.id),
        name: 'Ansattutlegg',
      });
      // The types come with the booking (from the cached context): booking reads none.
      expect(log.calls.map((c) => c.path)).not.toContain('/ledger/voucherType');
    });

    it('books a receipt paid by the company without a type: none of the standard types is for receipts', async () => {
      const { bookingId } = await tx.bookExpense(
        conn,
        booking({
          merchant: 'Vy',
          grossAmount: 56_000,
          lines: [line('7140', '12', '13', 56_000)],
          voucherTypes: context.voucherTypes,
        }),
      );
      expect(await voucherTypeOf(bookingId)).toBeNull();
    });
  });

  describe('the cases', () => {
    it('NOK 25 % paid by company card: net on the expense account, VAT on 2710, the card account credited', async () => {
      const { postings, moved } = await bookAndReadBack(
        booking({
          merchant: 'Clas Ohlson',
          grossAmount: 125_000,
          paidWith: 'company_card',
          paymentAccount: '1930',
          lines: [line('6800', '25', '1', 125_000)],
        }),
      );
      expect(rows(postings)).toEqual([
        ['6800', 100_000, '1', false],
        ['2710', 25_000, null, true],
        ['1930', -125_000, null, false],
      ]);
      expect(moved).toEqual({ '6800': 100_000, '2710': 25_000, '1930': -125_000 });
    });

    it('15 % food paid by an employee: a debt to that employee on 2910, named on the posting', async () => {
      const employee = context.employees[1];
      const { postings, moved } = await bookAndReadBack(
        booking({
          merchant: 'Rema 1000',
          grossAmount: 34_500,
          paidWith: 'employee',
          paymentAccount: '2910',
          employee: { providerId: employee.id, name: 'ignored', email: employee.email ?? 'x@y.no' },
          lines: [line('5915', '15', '11', 34_500)],
        }),
      );
      expect(rows(postings)).toEqual([
        ['5915', 30_000, '11', false],
        ['2710', 4_500, null, true],
        ['2910', -34_500, null, false],
      ]);
      expect(postings[2].party).toEqual({
        kind: 'employee',
        name: `${employee.firstName} ${employee.lastName}`,
        providerId: employee.id,
      });
      expect(moved).toEqual({ '5915': 30_000, '2710': 4_500, '2910': -34_500 });
    });

    it('12 % transport from the bank: VAT of the gross rounded half up to the øre', async () => {
      const { postings, moved } = await bookAndReadBack(
        booking({ merchant: 'Vy', grossAmount: 89_900, lines: [line('7140', '12', '13', 89_900)] }),
      );
      // 899.00 × 12/112 = 96.3214… → 96.32
      expect(rows(postings)).toEqual([
        ['7140', 80_268, '13', false],
        ['2710', 9_632, null, true],
        ['1920', -89_900, null, false],
      ]);
      expect(moved).toEqual({ '7140': 80_268, '2710': 9_632, '1920': -89_900 });
    });

    it('0 % exempt: the whole amount on the expense account with VAT code 0, no VAT posting', async () => {
      const { postings, moved } = await bookAndReadBack(
        booking({ merchant: 'Kursagenten', grossAmount: 490_000, lines: [line('6860', '0', '0', 490_000)] }),
      );
      expect(rows(postings)).toEqual([
        ['6860', 490_000, '0', false],
        ['1920', -490_000, null, false],
      ]);
      expect(moved).toEqual({ '6860': 490_000, '1920': -490_000 });
    });

    it('a grocery receipt split 15 % + 25 %: each line its account and VAT code, one credit for the total', async () => {
      const { postings, moved } = await bookAndReadBack(
        booking({
          merchant: 'Rema 1000',
          grossAmount: 35_000,
          lines: [
            line('5915', '15', '11', 23_000, 23_000, 'Mat'),
            line('6800', '25', '1', 12_000, 12_000, 'Batterier'),
          ],
        }),
      );
      expect(rows(postings)).toEqual([
        ['5915', 20_000, '11', false],
        ['2710', 3_000, null, true],
        ['6800', 9_600, '1', false],
        ['2710', 2_400, null, true],
        ['1920', -35_000, null, false],
      ]);
      expect(postings.map((p) => p.description)).toEqual(
        expect.arrayContaining(['Rema 1000: Mat', 'Rema 1000: Batterier']),
      );
      expect(moved).toEqual({ '5915': 20_000, '6800': 9_600, '2710': 5_400, '1920': -35_000 });
    });

    it('a supplier invoice, 25 %, unpaid: accounts payable with the supplier, invoice number, due date and KID; the bank untouched', async () => {
      const log = new ApiCallLog();
      const invoice = booking({
        kind: 'supplier_invoice',
        paidWith: null,
        merchant: SUPPLIER.name,
        grossAmount: 1_250_000,
        paymentAccount: '2400',
        supplier: { ...SUPPLIER, kid: '12345678903' },
        invoiceNumber: 'F-2026-1187',
        dueDate: '2026-12-11',
        lines: [line('6540', '25', '1', 1_250_000)],
      });
      const before = await balances();
      const { bookingId } = await tx.bookExpense(conn, invoice, { recorder: log });
      const postings = await tx.bookedPostings(conn, bookingId);
      const after = await balances();
      expect(rows(postings)).toEqual([
        ['6540', 1_000_000, '1', false],
        ['2710', 250_000, null, true],
        ['2400', -1_250_000, null, false],
      ]);
      expect(postings[2]).toMatchObject({
        party: { kind: 'supplier', name: SUPPLIER.name, organizationNumber: SUPPLIER.organizationNumber },
        invoiceNumber: 'F-2026-1187',
        dueDate: '2026-12-11',
        kid: '12345678903',
      });
      expect((after.get('2400') ?? 0) - (before.get('2400') ?? 0)).toBe(-1_250_000);
      expect((after.get('1920') ?? 0) - (before.get('1920') ?? 0)).toBe(0);
      expect(log.calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual(
        expect.arrayContaining(['GET /supplier 200', 'POST /supplier 201', 'POST /ledger/voucher 201']),
      );
      const [voucher] = sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
      expect(voucher.vendorInvoiceNumber).toBe('F-2026-1187');

      // The next invoice from the same organisation number finds the supplier instead of creating another.
      const second = new ApiCallLog();
      const next = await tx.bookExpense(
        conn,
        { ...invoice, reference: 'next-invoice', invoiceNumber: 'F-2026-1201' },
        { recorder: second },
      );
      expect(second.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/ledger/voucher']);
      const [, , payable] = await tx.bookedPostings(conn, next.bookingId);
      expect(payable.party?.providerId).toBe(postings[2].party?.providerId);
    });

    it('a USD SaaS subscription with reverse charge 25 %: the amount on the account (86), VAT both on 2710 and 2700', async () => {
      const { postings, moved } = await bookAndReadBack(
        booking({
          merchant: 'Figma',
          currency: 'USD',
          grossAmount: 4_500,
          amountNok: 49_860,
          vatTreatment: 'reverse_charge',
          paidWith: 'company_card',
          paymentAccount: '1930',
          lines: [line('6550', '25', '86', 4_500, 49_860)],
        }),
      );
      expect(rows(postings)).toEqual([
        ['6550', 49_860, '86', false],
        ['2710', 12_465, null, true],
        ['2700', -12_465, null, true],
        ['1930', -49_860, null, false],
      ]);
      expect(moved).toEqual({ '6550': 49_860, '1930': -49_860, '2710': 12_465, '2700': -12_465 });
    });

    it('a EUR hotel abroad, foreign VAT not deducted: the NOK amount gross with code 0, no VAT posting', async () => {
      const { postings, moved } = await bookAndReadBack(
        booking({
          merchant: 'Hotel Adlon',
          currency: 'EUR',
          grossAmount: 15_000,
          amountNok: 176_400,
          vatTreatment: 'foreign_no_deduction',
          lines: [line('7140', '7', '0', 15_000, 176_400)],
        }),
      );
      expect(rows(postings)).toEqual([
        ['7140', 176_400, '0', false],
        ['1920', -176_400, null, false],
      ]);
      expect(moved).toEqual({ '7140': 176_400, '1920': -176_400 });
    });

    it('a department on the lines where the account requires one', async () => {
      const department = context.departments[0];
      const { bookingId } = await tx.bookExpense(
        conn,
        booking({
          merchant: 'Finn.no',
          grossAmount: 50_000,
          departmentId: department.id,
          lines: [line('7320', '25', '1', 50_000)],
        }),
      );
      const [voucher] = sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
      expect(String(voucher.id)).toBe(bookingId);
      expect(voucher.postings.find((p) => p.row === 1)?.departmentId).toBe(Number(department.id));
    });
  });

  describe("the chart's rules, as Tripletex enforces them", () => {
    const refused = async (expense: ExpenseBooking) => {
      const error = await tx.bookExpense(conn, expense).catch((e: unknown) => e);
      expect(sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN)).toHaveLength(0);
      return error;
    };

    it('refuses a VAT type other than the one a VAT-locked account takes', async () => {
      const error = await refused(
        booking({ merchant: 'Eiendom AS', grossAmount: 100_000, lines: [line('6300', '25', '1', 100_000)] }),
      );
      expect(error).toMatchObject({ transient: false, message: expect.stringMatching(/6300 er låst til mva-kode 0/) });
    });

    it('refuses a posting without a department on an account that requires one', async () => {
      const error = await refused(
        booking({ merchant: 'Finn.no', grossAmount: 50_000, lines: [line('7320', '25', '1', 50_000)] }),
      );
      expect(error).toMatchObject({ transient: false, message: expect.stringMatching(/Avdeling må oppgis.*7320/) });
    });

    it('refuses a posting on an inactive account', async () => {
      const error = await refused(
        booking({ merchant: 'Bring', grossAmount: 20_000, lines: [line('6100', '25', '1', 20_000)] }),
      );
      expect(error).toMatchObject({ transient: false, message: expect.stringMatching(/6100 er inaktiv/) });
    });

    it('refuses a VAT type the account does not allow (an output code on an expense account)', async () => {
      const error = await refused(
        booking({ merchant: 'Staples', grossAmount: 20_000, lines: [line('6800', '25', '3', 20_000)] }),
      );
      expect(error).toMatchObject({
        transient: false,
        message: expect.stringMatching(/Mva-kode 3 er ikke tillatt på konto 6800/),
      });
    });

    it('refuses an employee expense whose submitter has no Tripletex employee, before posting anything', async () => {
      const error = await refused(
        booking({
          merchant: 'Rema 1000',
          grossAmount: 34_500,
          paidWith: 'employee',
          paymentAccount: '2910',
          employee: null,
          lines: [line('5915', '15', '11', 34_500)],
        }),
      );
      expect(error).toMatchObject({ code: 'provider_error', transient: false, message: expect.stringMatching(/2910/) });
    });

    it('refuses a line whose VAT code the company has no VAT type for, with unknown_vat_rate', async () => {
      const error = await refused(
        booking({ merchant: 'X', grossAmount: 10_000, lines: [line('6800', '15', null, 10_000)] }),
      );
      expect(error).toMatchObject({ code: 'unknown_vat_rate' });
    });
  });
});
