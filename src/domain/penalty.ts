import type { Minor } from './money.js';
import type { FareRules } from './order.js';

/** A percentage is carried in hundredths of a percent: 10000 is the whole fare. */
export const WHOLE_IN_BASIS_POINTS = 10_000;

/**
 * `basisPoints` of `fare`, rounded half up to a whole minor unit. In integers (BigInt, since fare ×
 * 10000 can pass 2^53): in floating point 10250 × 0.35 is 3587.4999…, which would round to 3587
 * where the decimal answer, 3587.5, rounds to 3588.
 */
export function percentOf(fare: Minor, basisPoints: number): Minor {
  const product = BigInt(fare) * BigInt(basisPoints);
  const whole = BigInt(WHOLE_IN_BASIS_POINTS);
  return Number((product * 2n + whole) / (whole * 2n));
}

/** What the airline keeps of the base fare on a voluntary refund: never more than the fare itself. */
export function penaltyOf(rules: FareRules, baseFare: Minor): Minor {
  const penalty =
    rules.penaltyBasisPoints !== undefined ? percentOf(baseFare, rules.penaltyBasisPoints) : (rules.penalty ?? 0);
  return Math.min(penalty, baseFare);
}
