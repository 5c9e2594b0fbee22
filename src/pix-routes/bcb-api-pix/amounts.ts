// Amounts as the API Pix and Efí write them: decimal reais with two decimals in a string ("10.00").
const PSP_AMOUNT = /^(\d{1,12})\.(\d{2})$/;

export function pspAmount(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The centavos of a PSP amount; null when the text is not one. */
export function centsOfPspAmount(text: unknown): number | null {
  const match = typeof text === 'string' ? PSP_AMOUNT.exec(text) : null;
  return match ? Number(match[1]) * 100 + Number(match[2]) : null;
}
