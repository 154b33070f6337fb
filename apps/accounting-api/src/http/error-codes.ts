import type { ErrorCode } from '@app/domain';

/** The one table from error code to HTTP status and title (docs/api.md §3). */
export const ERROR_STATUS: Readonly<Record<ErrorCode, { status: number; title: string }>> = {
  validation_failed: { status: 400, title: 'Request validation failed' },
  invalid_token: { status: 401, title: 'Invalid token' },
  token_expired: { status: 401, title: 'Token expired' },
  unknown_company: { status: 403, title: 'Unknown company' },
  permission_denied: { status: 403, title: 'Permission denied' },
  role_insufficient: { status: 403, title: 'Role insufficient' },
  not_found: { status: 404, title: 'Not found' },
  invalid_transition: { status: 409, title: 'Invalid state transition' },
  idempotency_conflict: { status: 409, title: 'Idempotency key reused with a different request' },
  provider_not_connected: { status: 409, title: 'Provider not connected' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  unknown_account_code: { status: 422, title: 'Unknown account code' },
  unknown_vat_rate: { status: 422, title: 'Unknown VAT rate' },
  account_rule_violated: { status: 422, title: "The account's rules at the provider refuse the posting" },
  department_required: { status: 422, title: 'Department required' },
  payment_account_not_configured: { status: 422, title: 'Payment account not configured' },
  nok_amount_required: { status: 422, title: 'NOK amount required for a foreign currency' },
  vat_treatment_required: { status: 422, title: 'VAT treatment required for a foreign purchase' },
  vat_treatment_not_applicable: { status: 422, title: 'VAT treatment not applicable' },
  employee_not_mapped: { status: 422, title: 'Submitter not mapped to a provider employee' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  provider_error: { status: 502, title: 'Provider error' },
  provider_unavailable: { status: 503, title: 'Provider unavailable' },
  provider_timeout: { status: 504, title: 'Provider timeout' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
};

export const ERROR_TYPE_BASE = 'https://errors.accounting-api.dev/';
