import { voucherTypeFor } from './tripletex-voucher-type';

/** A new Tripletex company's voucher types, with the ids of a test company. */
const STANDARD = [
  'Utgående faktura',
  'Leverandørfaktura',
  'Purring',
  'Betaling',
  'Lønnsbilag',
  'Reiseregning',
  'Ansattutlegg',
  'Åpningsbalanse',
].map((name, i) => ({ id: String(8145236 + i), name }));

describe('voucherTypeFor (Tripletex)', () => {
  it('files a supplier invoice as "Leverandørfaktura"', () => {
    expect(voucherTypeFor({ kind: 'supplier_invoice', paidWith: null, voucherTypes: STANDARD })?.name).toBe(
      'Leverandørfaktura',
    );
  });

  it('files an employee’s outlay as "Ansattutlegg"', () => {
    expect(voucherTypeFor({ kind: 'expense', paidWith: 'employee', voucherTypes: STANDARD })?.name).toBe(
      'Ansattutlegg',
    );
  });

  it('gives a receipt paid by the company no type among the standard ones', () => {
    for (const paidWith of ['bank', 'company_card'] as const) {
      expect(voucherTypeFor({ kind: 'expense', paidWith, voucherTypes: STANDARD })).toBeNull();
    }
  });

  it('files a receipt under a type the company named for receipts, whatever its letter case', () => {
    const voucherTypes = [...STANDARD, { id: '9000001', name: ' KVITTERING ' }];
    expect(voucherTypeFor({ kind: 'expense', paidWith: 'bank', voucherTypes })).toEqual({
      id: '9000001',
      name: ' KVITTERING ',
    });
    const withoutOutlayType = voucherTypes.filter((type) => type.name !== 'Ansattutlegg');
    expect(voucherTypeFor({ kind: 'expense', paidWith: 'employee', voucherTypes: withoutOutlayType })?.id).toBe(
      '9000001',
    );
  });

  it('never takes a type whose name only contains a wanted word', () => {
    const voucherTypes = [
      { id: '1', name: 'Leverandørfaktura (gammel)' },
      { id: '2', name: 'Utgifter reise' },
    ];
    expect(voucherTypeFor({ kind: 'supplier_invoice', paidWith: null, voucherTypes })).toBeNull();
    expect(voucherTypeFor({ kind: 'expense', paidWith: 'bank', voucherTypes })).toBeNull();
  });

  it('sets none when the company’s voucher types are not known', () => {
    expect(voucherTypeFor({ kind: 'supplier_invoice', paidWith: null })).toBeNull();
    expect(voucherTypeFor({ kind: 'expense', paidWith: 'employee', voucherTypes: [] })).toBeNull();
  });
});
