import { NEAR_BOOKINGS_LIMIT, type HistoricalBooking } from '@app/domain';
import type { Bind, OrderedSelect } from '../shared/sql';

/** A row of BOOKING_SELECT. */
export interface BookingRecord {
  provider: string;
  booking_id: string;
  kind: HistoricalBooking['kind'];
  booking_date: string;
  merchant: string;
  account_code: string;
  vat_rate: string;
  amount: string | number;
}

/** The columns of a booking: the date as `YYYY-MM-DD` text, the amount as bigint (toNumber). */
export const BOOKING_SELECT = `provider, booking_id, kind, to_char(booking_date, 'YYYY-MM-DD') AS booking_date, merchant,
  account_code, vat_rate, amount`;

/** Bookings of an amount in [amountMin, amountMax] dated in [from, to] (provider_bookings_duplicate_idx). */
export function nearBookingsSelect(
  bind: Bind,
  companyId: string,
  amountMin: number,
  amountMax: number,
  from: string,
  to: string,
): OrderedSelect {
  const order = 'booking_date, provider, booking_id';
  return {
    sql: `SELECT ${BOOKING_SELECT} FROM provider_bookings
           WHERE company_id = ${bind(companyId)} AND amount BETWEEN ${bind(amountMin)} AND ${bind(amountMax)}
             AND booking_date BETWEEN ${bind(from)} AND ${bind(to)}
           ORDER BY ${order} LIMIT ${bind(NEAR_BOOKINGS_LIMIT)}`,
    order,
  };
}

export function bookingOf(row: BookingRecord): HistoricalBooking {
  return {
    provider: row.provider,
    bookingId: row.booking_id,
    kind: row.kind,
    date: row.booking_date,
    merchant: row.merchant,
    accountCode: row.account_code,
    vatRate: row.vat_rate,
    amount: Number(row.amount),
  };
}
