import {
  ApplicationContext,
  ApplicationOptions,
  ApproveProposalHandler,
  ConfirmSuggestionsHandler,
  CreatePatternHandler,
  EditPatternHandler,
  GetCompanySettingsHandler,
  GetProposalHandler,
  IdempotentExecution,
  ListEventsHandler,
  ListProposalsHandler,
  ListReimbursementsHandler,
  MarkReimbursementPaidHandler,
  ListPatternsHandler,
  ListSuggestionsHandler,
  PdfCheck,
  RejectProposalHandler,
  RetirePatternHandler,
  SubmitProposalHandler,
  UpdateCompanySettingsHandler,
  type Caller,
  type ProposalSubmission,
} from '@app/application';
import { ConfidenceEngine, type CompanyContext } from '@app/domain';
import { InMemoryBookingHistoryStore } from './in-memory/in-memory-booking-history-store';
import { InMemoryCompanyContextStore } from './in-memory/in-memory-company-context-store';
import { InMemoryEmployeeMappingRepository } from './in-memory/in-memory-employee-mapping-repository';
import { InMemorySubmissionReads } from './in-memory/in-memory-submission-reads';
import { createInMemoryAdapters } from './in-memory/in-memory-adapters';
import { REVIEWER, SUBMITTER, TEST_COMPANY } from './mothers/origin.mother';
import { receiptPdf } from './mothers/receipt-pdf.mother';

/** The employee who submits through the agent (the mothers' SUBMITTER). */
export const EMPLOYEE: Caller = { actor: SUBMITTER, company: TEST_COMPANY, channel: 'slack', role: 'employee' };
/** An accountant reviewing (the mothers' REVIEWER). */
export const ACCOUNTANT: Caller = { actor: REVIEWER, company: TEST_COMPANY, channel: 'web', role: 'accountant' };
export const OTHER_COMPANY = 'globex';

/** A one-page PDF receipt, as the receipt check parses it. */
export const PDF_BYTES = receiptPdf();

/**
 * One PDF check (and so one parser thread, started on first use) for every world of a test file.
 * The thread does not keep the process alive, but a jest worker ending with parser threads still
 * running has to stop each of them on its way out: a spec that makes worlds ends them with
 * `afterAll(endUseCaseWorlds)`.
 */
let pdfCheck: PdfCheck | null = null;

/** Ends what the worlds made so far share (the PDF parser thread). */
export async function endUseCaseWorlds(): Promise<void> {
  const check = pdfCheck;
  pdfCheck = null;
  await check?.onModuleDestroy();
}

/** A valid POST /proposals body: the Spotify subscription of the mothers, with a PDF receipt. */
export function aSubmission(overrides: Partial<ProposalSubmission> = {}): ProposalSubmission {
  return {
    kind: 'expense',
    merchant: 'Spotify AB',
    amount: '119.00',
    currency: 'NOK',
    date: '2026-11-20',
    accountCode: '6540',
    vatRate: '25',
    description: 'Spotify Premium',
    receipt: { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: PDF_BYTES.toString('base64') },
    thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
    resubmissionOf: null,
    ...overrides,
  };
}

/**
 * The `n`th repeat of a purchase from one merchant (n ≥ 1): `n` weeks before aSubmission's date,
 * with a receipt of its own, so that it is another purchase and not a duplicate of the first.
 */
export function aRepeatSubmission(n: number, overrides: Partial<ProposalSubmission> = {}): ProposalSubmission {
  const date = new Date(Date.parse('2026-11-20T00:00:00Z') - n * 7 * 86_400_000).toISOString().slice(0, 10);
  const bytes = receiptPdf({ note: `purchase ${n}` });
  return aSubmission({
    date,
    receipt: { filename: `r${n}.pdf`, contentType: 'application/pdf', dataBase64: bytes.toString('base64') },
    ...overrides,
  });
}

/** A Tripletex chart with the accounts and VAT rates the submissions use. */
export function aCompanyContext(companyId = TEST_COMPANY): CompanyContext {
  return {
    companyId,
    provider: 'tripletex',
    accounts: ['1920', '6500', '6540', '6550'].map((code) => ({ code, name: `Account ${code}` })),
    departments: [],
    vatTypes: [
      { id: '1', code: '1', name: 'Inngående MVA, høy sats', ratePercent: '25' },
      { id: '11', code: '11', name: 'Inngående MVA, middels sats', ratePercent: '15' },
      { id: '0', code: '0', name: 'Ingen MVA', ratePercent: '0' },
    ],
    employees: [],
    voucherTypes: [],
    inactiveSuppliers: [],
    fetchedAt: new Date('2026-11-01T00:00:00.000Z'),
  };
}

/** Every use case over the in-memory adapters, with a manual clock and sequential ids. */
export function aUseCaseWorld(options: Partial<ApplicationOptions> = {}) {
  const adapters = createInMemoryAdapters();
  const ctx = new ApplicationContext(adapters.clock, adapters.ids);
  const applicationOptions = new ApplicationOptions(options);
  const contexts = new InMemoryCompanyContextStore();
  const history = new InMemoryBookingHistoryStore();
  const employees = new InMemoryEmployeeMappingRepository();
  return {
    ...adapters,
    contexts,
    history,
    employees,
    idempotencyKeys: adapters.idempotency,
    submitProposal: new SubmitProposalHandler(
      adapters.submissions,
      adapters.settings,
      contexts,
      new InMemorySubmissionReads(adapters.patterns, adapters.proposals, history),
      adapters.proposals,
      new IdempotentExecution(adapters.clock),
      new ConfidenceEngine(),
      ctx,
      applicationOptions,
      (pdfCheck ??= new PdfCheck()),
      employees,
    ),
    getProposal: new GetProposalHandler(adapters.proposals, adapters.events, adapters.settings, employees),
    approveProposal: new ApproveProposalHandler(adapters.unitOfWork, contexts, adapters.settings, ctx),
    rejectProposal: new RejectProposalHandler(adapters.unitOfWork, contexts, ctx),
    listEvents: new ListEventsHandler(adapters.events),
    listProposals: new ListProposalsHandler(adapters.proposals, adapters.events),
    listReimbursements: new ListReimbursementsHandler(adapters.proposals, employees, adapters.events),
    markReimbursementPaid: new MarkReimbursementPaidHandler(adapters.unitOfWork, contexts, ctx),
    listPatterns: new ListPatternsHandler(adapters.patterns),
    listSuggestions: new ListSuggestionsHandler(adapters.patterns, history),
    confirmSuggestions: new ConfirmSuggestionsHandler(adapters.unitOfWork, ctx),
    createPattern: new CreatePatternHandler(adapters.unitOfWork, ctx),
    editPattern: new EditPatternHandler(adapters.unitOfWork, ctx),
    retirePattern: new RetirePatternHandler(adapters.unitOfWork, ctx),
    getCompanySettings: new GetCompanySettingsHandler(adapters.settings),
    updateCompanySettings: new UpdateCompanySettingsHandler(adapters.settings, contexts, applicationOptions),
  };
}

export type UseCaseWorld = ReturnType<typeof aUseCaseWorld>;

/** Submits and returns the stored proposal (never a replay: no idempotency key). */
export async function submitted(
  world: UseCaseWorld,
  submission: ProposalSubmission = aSubmission(),
  caller: Caller = EMPLOYEE,
) {
  const outcome = await world.submitProposal.execute({ caller, submission });
  if (outcome.replayed) throw new Error('a submission without a key cannot be a replay');
  return outcome.result;
}

/** The field names of a ValidationFailed, or the error when it is something else. */
export async function fieldsOf(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    const fieldErrors = (error as { fieldErrors?: { field: string }[] }).fieldErrors;
    if (fieldErrors) return fieldErrors.map((e) => e.field);
    throw error;
  }
  throw new Error('expected the promise to fail with ValidationFailed');
}
