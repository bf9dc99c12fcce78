import { WHOLE_IN_BASIS_POINTS } from '../domain/penalty.js';
import { sumMinor, formatAmount, type Minor } from '../domain/money.js';
import type { FareRules, TaxLine } from '../domain/order.js';
import { FieldError } from './document-error.js';
import { child, type FieldPath } from './field-path.js';
import { amount, array, bool, object, text, unique } from './field-readers.js';

/** IATA tax codes are two letters or digits (YQ, YR, DE, US, XF…). */
const TAX_CODE = /^[A-Z0-9]{2}$/;
/** 0 to 100 with at most two decimals, so that it is a whole number of hundredths of a percent. */
const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

/** A ticket's taxes code by code: each code once, adding up exactly to the ticket's `taxes`. */
export function readTaxBreakdown(value: unknown, path: FieldPath, currency: string, taxes: Minor): TaxLine[] {
  const lines = array(value, path, 1, 50).map((entry, index) => {
    const linePath = child(path, index);
    const raw = object(entry, linePath);
    const line: TaxLine = {
      code: text(raw.code, child(linePath, 'code'), TAX_CODE, 'must be a two-character tax code such as YQ or DE'),
      amount: amount(raw.amount, child(linePath, 'amount'), currency),
    };
    if (raw.refundable !== undefined) line.refundable = bool(raw.refundable, child(linePath, 'refundable'));
    return line;
  });
  unique(
    lines.map((line) => line.code),
    path,
    'code',
  );
  const total = sumMinor(lines.map((line) => line.amount));
  if (total !== taxes) {
    throw new FieldError(
      path,
      `amounts add up to ${formatAmount(total, currency)}, not to the ticket's taxes ${formatAmount(taxes, currency)}`,
    );
  }
  return lines;
}

/** The percentage as hundredths of a percent, read from its decimal text (never through a float). */
function basisPoints(value: unknown, path: FieldPath): number {
  const textValue = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof textValue !== 'string') throw new FieldError(path, 'must be a percentage such as "35" or "12.5"');
  const match = PERCENT.exec(textValue);
  const points = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : NaN;
  if (!(points <= WHOLE_IN_BASIS_POINTS)) {
    throw new FieldError(
      path,
      `must be a percentage from 0 to 100 with at most two decimals, got ${JSON.stringify(String(textValue).slice(0, 80))}`,
    );
  }
  return points;
}

/** What the fare allows: `refundable`, and a penalty as an amount or a percentage of the base fare, not both. */
export function readFareRules(value: unknown, path: FieldPath, currency: string): FareRules {
  const raw = object(value, path);
  const rules: FareRules = { refundable: bool(raw.refundable, child(path, 'refundable')) };
  if (raw.penalty !== undefined && raw.penaltyPercent !== undefined) {
    throw new FieldError(
      child(path, 'penaltyPercent'),
      'cannot be given with penalty: the penalty is an amount or a percentage',
    );
  }
  if (raw.penalty !== undefined) rules.penalty = amount(raw.penalty, child(path, 'penalty'), currency);
  if (raw.penaltyPercent !== undefined)
    rules.penaltyBasisPoints = basisPoints(raw.penaltyPercent, child(path, 'penaltyPercent'));
  return rules;
}
