/*
 * A typed client of the Accounting API, generated from its /openapi.json with openapi-typescript
 * (`api.d.ts`) and called with openapi-fetch: an employee's agent submits a proposal, an accountant
 * approves it if it waits for review, and the proposal's chain of events is read back. Every
 * request and response is typed by the document alone: no casts.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './api';

type Proposal = components['schemas']['ProposalDto'];
type Event = components['schemas']['EventDto'];
type Problem = components['schemas']['ProblemDto'];

export interface ReviewFlowOptions {
  /** The service's origin, such as http://localhost:3000. */
  baseUrl: string;
  /** Gateway tokens: an employee's (permission solve) and an accountant's (solve, monitor). */
  employeeToken: string;
  accountantToken: string;
}

export interface ReviewFlowResult {
  submitted: Proposal;
  approved: Proposal | null;
  events: Event[];
}

function failure(operation: string, problem: Problem): Error {
  return new Error(`${operation}: ${problem.status} ${problem.code}: ${problem.detail}`);
}

export async function submitApproveAndReadEvents(options: ReviewFlowOptions): Promise<ReviewFlowResult> {
  const employee = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.employeeToken}` },
  });
  const accountant = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.accountantToken}` },
  });

  const submitted = await employee.POST('/v1/proposals', {
    params: { header: { 'Idempotency-Key': `typed-client-${Date.now()}` } },
    body: {
      kind: 'expense',
      merchant: 'Kontorrekvisita AS',
      amount: '349.00',
      currency: 'NOK',
      date: new Date().toISOString().slice(0, 10),
      accountCode: '6800',
      vatRate: '25',
      description: 'Printer paper',
    },
  });
  if (submitted.error) throw failure('submitProposal', submitted.error);
  const proposal = submitted.data;

  let approved: Proposal | null = null;
  if (proposal.status === 'PROPOSED') {
    const result = await accountant.POST('/v1/review/{id}/approve', {
      params: { path: { id: proposal.id } },
      body: { corrections: null },
    });
    if (result.error) throw failure('approveProposal', result.error);
    approved = result.data;
  }

  const events = await accountant.GET('/v1/events', {
    params: { query: { correlationId: proposal.correlationId, limit: 200 } },
  });
  if (events.error) throw failure('listEvents', events.error);
  return { submitted: proposal, approved, events: events.data.items };
}
