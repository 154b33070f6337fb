/**
 * The privileges the sandbox's employee tokens hold, by default all of them. The names are the
 * sandbox's, in the style of Tripletex's (whose definition says only "Descriptive name for the
 * privilege. Might change between releases"); the one the adapter needs is the "Advanced Voucher"
 * right that `sendToLedger=true` requires.
 */
export const SANDBOX_ENTITLEMENTS: readonly { readonly entitlementId: number; readonly name: string }[] = [
  { entitlementId: 1, name: 'ROLE_LOGIN' },
  { entitlementId: 10, name: 'AUTH_ACCOUNTING' },
  { entitlementId: 11, name: 'AUTH_ADVANCED_VOUCHER' },
  { entitlementId: 12, name: 'AUTH_VOUCHER_ATTACHMENT' },
];

export const ADVANCED_VOUCHER = 'AUTH_ADVANCED_VOUCHER';
