/**
 * Money without floating point: amounts become integer minor units (cents, fils, yen) by string
 * manipulation of their decimal text only.
 */

// ISO 4217 codes whose minor unit is not 2 decimals; every other code uses 2.
const EXPONENT_EXCEPTIONS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/**
 * The ISO 4217 exponent (number of decimals) of a currency code: JPY 0, EUR 2, KWD 3. Codes not in
 * the exception list use 2, which is ISO 4217's rule for the vast majority. Throws on a string that
 * is not a three-letter code.
 */
export function currencyExponent(currency: string): number {
  if (!/^[A-Z]{3}$/.test(currency))
    throw new TypeError(`"${currency}" is not an ISO 4217 currency code (three upper-case letters)`);
  return EXPONENT_EXCEPTIONS[currency] ?? 2;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * "570.50" with exponent 2 → 57050. The text must have exactly `exponent` decimals, as the service
 * writes amounts with the currency's decimals: a different count means the currency is not the one
 * the text was written in, and the function throws rather than guess. Also throws past 2^53.
 */
export function decimalToMinor(text: string, exponent: number): number {
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`"${text}" is not a decimal amount`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length !== exponent) {
    throw new RangeError(`"${text}" has ${fraction.length} decimals, the currency has ${exponent}`);
  }
  const minor = Number(`${sign}${whole}${fraction}`);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`"${text}" is too large to be held exactly`);
  return minor === 0 ? 0 : minor;
}

/** Significant digits a double keeps exactly through decimal text and back (IEEE 754: 15). */
const EXACT_DIGITS = 15;

/**
 * A JSON number of the wire (570.5, in a currency of exponent 2) → 57050, with no arithmetic on
 * the double: its shortest decimal text (`String`) is the decimal the service wrote, trailing
 * zeros aside, as long as the amount has at most 15 digits in minor units; the fraction is then
 * padded to the currency's decimals. Throws when the number has more decimals than the currency
 * (it was not written in that currency), is too large to be exact, or is not finite.
 */
export function numberToMinor(value: number, exponent: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not an amount`);
  const text = String(value);
  // Exponent notation ("1e+21", "1e-7") is outside any amount the service writes.
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`${text} is not a decimal amount`);
  const [, , whole, fraction = ''] = match;
  if (fraction.length > exponent)
    throw new RangeError(`${text} has ${fraction.length} decimals, the currency has ${exponent}`);
  // Bounded by the amount's digits in minor units, not the text's: 16 digits may print as 15.
  if (whole!.replace(/^0+/, '').length + exponent > EXACT_DIGITS)
    throw new RangeError(`${text} is too large to be held exactly in a JSON number`);
  return decimalToMinor(
    `${text}${exponent > 0 && fraction === '' ? '.' : ''}${fraction.padEnd(exponent, '0').slice(fraction.length)}`,
    exponent,
  );
}

/** 57050 with exponent 2 → "570.50"; 1200 with exponent 0 → "1200". */
export function minorToDecimal(minor: number, exponent: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a safe integer`);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
