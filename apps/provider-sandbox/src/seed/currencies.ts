/** The currencies both sandboxes know, with the ids the Tripletex sandbox gives them (NOK is 1). */
export const CURRENCIES: ReadonlyArray<{ id: number; code: string; description: string }> = [
  { id: 1, code: 'NOK', description: 'Norske kroner' },
  { id: 2, code: 'SEK', description: 'Svenske kroner' },
  { id: 3, code: 'DKK', description: 'Danske kroner' },
  { id: 4, code: 'USD', description: 'Amerikanske dollar' },
  { id: 5, code: 'EUR', description: 'Euro' },
  { id: 6, code: 'GBP', description: 'Britiske pund' },
];

export function currencyByCode(code: string): { id: number; code: string; description: string } | undefined {
  return CURRENCIES.find((c) => c.code === code);
}

export function currencyById(id: number): { id: number; code: string; description: string } | undefined {
  return CURRENCIES.find((c) => c.id === id);
}
