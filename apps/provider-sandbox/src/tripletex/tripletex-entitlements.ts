import type { Router } from 'express';
import { queryBool } from '../shared/http';
import { sendTripletexError } from './tripletex-errors';
import { callOf, sendList } from './tripletex-http';
import { ADVANCED_VOUCHER } from './tripletex-privileges';
import type { TripletexState } from './tripletex-state';

/**
 * `GET /employee/entitlement` (the token owner's privileges, paged like every list), and the check
 * `POST /ledger/voucher?sendToLedger=true` makes: 403 without the Advanced Voucher right, as the
 * definition says ("Requires the \"Advanced Voucher\" permission"). Registered before the ledger and
 * employee routes.
 */
export function registerEntitlementRoutes(router: Router, state: TripletexState): void {
  router.get('/employee/entitlement', (req, res) => {
    const { company } = callOf(res);
    const held = state.entitlements(company.index);
    sendList(
      req,
      res,
      held.length,
      (i) => ({
        id: company.employeeId * 100 + held[i].entitlementId,
        entitlementId: held[i].entitlementId,
        name: held[i].name,
        employee: { id: company.employeeId },
        customer: { id: company.id },
      }),
      `entitlement:${company.id}`,
    );
  });

  router.post('/ledger/voucher', (req, res, next) => {
    const { company } = callOf(res);
    const toLedger = queryBool(req, 'sendToLedger') !== false;
    if (toLedger && !state.entitlements(company.index).some((e) => e.name === ADVANCED_VOUCHER)) {
      sendTripletexError(
        res,
        403,
        9000,
        'Du har ikke tilgang til denne funksjonen.',
        'sendToLedger requires the "Advanced Voucher" permission',
      );
      return;
    }
    next();
  });
}
