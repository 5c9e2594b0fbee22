// Money at the API edge: decimal reais outside, integer centavos inside.

const DECIMAL_REAIS = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Converts a JSON amount in reais to integer centavos.
 * Returns null when the value is not a finite non-negative number with at most two decimal
 * places. The check reads the number's shortest decimal form (what JSON carried), so 149.9 is
 * 14990 and 0.1 + 0.2 (0.30000000000000004) is refused instead of being rounded.
 */
export function reaisToCents(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  const match = DECIMAL_REAIS.exec(String(value));
  if (!match) return null;
  const cents = BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return cents <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cents) : null;
}

/** Centavos to reais for the API edge: 14990 → 149.9 (division is exact to the nearest double). */
export function centsToReais(cents: number | bigint): number {
  return Number(cents) / 100;
}

/** Centavos as Brazilians read them in a message: 14990 → "R$ 149,90". */
export function formatReais(cents: number): string {
  return `R$ ${(cents / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Whether `cents` is a whole positive number of centavos the engine computes with exactly (up to Number.MAX_SAFE_INTEGER). */
export const isExactCents = (cents: number): boolean => Number.isSafeInteger(cents) && cents > 0;

/** An amount the engine cannot compute with exactly (not isExactCents): no retry changes it. */
export class CentsOutOfRange extends RangeError {
  override readonly name = 'CentsOutOfRange';
}
