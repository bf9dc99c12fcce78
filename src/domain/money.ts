import { currencyExponent } from './currencies.js';

/** An amount in the currency's minor units (cents, fils, yen). Always a safe integer. */
export type Minor = number;

/**
 * The most minor units an amount, or any sum the service takes over an order's amounts, may come
 * to: 10^15 - 1 (9999999999999.99 EUR, 999999999999999 JPY, 999999999999.999 KWD). On the wire an
 * amount is a JSON number, a double, which prints back as the decimal it was read from only when
 * that decimal has at most 15 significant digits: below 10^15 minor units every amount, whatever
 * the currency's decimals, is exact there too (toWireAmount). Imports refuse what passes it
 * (order-sums.ts, parseAmount). It is far below Number.MAX_SAFE_INTEGER, so the integer sums the
 * checks take are exact as well: two amounts within it add up to less than 2^53 (test/unit/money.test.ts).
 */
export const LARGEST_MINOR: Minor = 999_999_999_999_999;

// Any number of integer digits: whether the amount fits is decided in minor units (exact below 2^53, and any
// larger digits read as a number past LARGEST_MINOR), not by its length, so leading zeros are harmless.
const DECIMAL = /^(\d+)(?:\.(\d{1,4}))?$/;

/**
 * Reads a decimal string such as "570.50" into minor units, by string manipulation only, so no
 * binary floating point ever touches the amount. Returns null when the text is not a non-negative
 * decimal with at most the currency's number of decimals.
 */
export function parseAmount(text: string, currency: string): Minor | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const exponent = currencyExponent(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) return null;
  const minor = Number(match[1] + fraction.padEnd(exponent, '0'));
  return minor <= LARGEST_MINOR ? minor : null;
}

/**
 * Whether parseAmount refused `text` only because it is too large: well formed, with no more than
 * the currency's decimals, but more than LARGEST_MINOR. Lets the error say so.
 */
export function isTooLargeAmount(text: string, currency: string): boolean {
  const match = DECIMAL.exec(text);
  return (
    match !== null && (match[2] ?? '').length <= currencyExponent(currency) && parseAmount(text, currency) === null
  );
}

/** Writes minor units with exactly the currency's decimals: 57050 EUR → "570.50", 1200 JPY → "1200". */
export function formatAmount(minor: Minor, currency: string): string {
  const exponent = currencyExponent(currency);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * The wire form of an amount: a JSON number. Parsing the exact decimal text yields the double
 * closest to the decimal value, which JSON serialisation prints back as the same decimal when it
 * has at most 15 significant digits (below 10^15 minor units); beyond, doubles are too far apart
 * for every decimal, and the nearest one may print with its last digit changed. Imports keep every
 * amount and every sum of an order's amounts within LARGEST_MINOR, below 10^15, so what is written
 * here is exact.
 */
export function toWireAmount(minor: Minor, currency: string): number {
  return Number(formatAmount(minor, currency));
}

/**
 * Throws past a safe integer: past it the total would no longer be the exact sum. That is the
 * invariant this guards, and it holds for any amounts, which is why the guard stays at
 * Number.MAX_SAFE_INTEGER rather than LARGEST_MINOR: the wire bound is a rule of what imports
 * accept, while an order stored before that rule (sums up to 2^53 - 1, refused by changes import)
 * still adds up exactly here. Reaching it is a bug, since imports refuse orders whose sums could get
 * anywhere near it (order-sums.ts).
 */
export function sumMinor(amounts: readonly Minor[]): Minor {
  let total = 0;
  for (const amount of amounts) total += amount;
  if (!Number.isSafeInteger(total)) throw new RangeError('Amount overflow');
  return total;
}

/** Splits a total into `parts` integer shares, evenly, the remainder going to the first share. */
export function splitEvenly(total: Minor, parts: number): Minor[] {
  if (parts <= 0) return [];
  const share = Math.floor(total / parts);
  const shares = new Array<Minor>(parts).fill(share);
  shares[0] = total - share * (parts - 1);
  return shares;
}
