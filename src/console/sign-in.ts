import type { Clock } from '../runtime/clock.js';
import type { Store } from '../store/store.js';
import { normalEmail } from './operator-accounts.js';
import { DECOY_HASH, verifyPassword } from './password-hash.js';
import { addressKey as clientAddressKey } from '../client-address.js';
import type { RememberedRefusals } from './remembered-refusals.js';

/** Wrong passwords allowed within the window: per email (guessing one password), per address (trying many emails). */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const FAILURES_PER_EMAIL = 5;
export const FAILURES_PER_ADDRESS = 20;

// No operator's email is longer (operator-accounts.ts); a longer one still counts, under its first characters.
const LONGEST_EMAIL = 254;

export type SignInResult = { ok: true; email: string } | { ok: false; limited: boolean };

/**
 * Checks an email and password. The attempt is counted in the store before anything is checked, so
 * that attempts sent at once, to any process, are checked only as far as the limits allow; the
 * rest are refused unchecked. The address is counted first, and only an attempt within its limit is
 * counted against the email; a refused attempt is taken back from what it was counted against, so it
 * counts against nothing: refusals from a locked address (or behind one shared proxy address) never
 * use up an operator's tries, and what stays counted is the passwords checked. An unknown email, a
 * disabled operator and a wrong password are the same failure, counted alike and answered alike,
 * after the same work (a decoy hash is checked), so that the answer does not tell which emails
 * exist. A success takes back its own attempt and nothing more: the failures counted before it stay
 * counted until their window ends (docs/decisions.md, "Limits on wrong passwords").
 */
export async function signIn(
  store: Store,
  clock: Clock,
  refusals: RememberedRefusals,
  input: { email: string; password: string; address: string },
): Promise<SignInResult> {
  const email = normalEmail(input.email);
  const emailKey = `email:${email.slice(0, LONGEST_EMAIL)}`;
  const addressKey = `address:${clientAddressKey(input.address)}`;
  const now = clock();
  if (refusals.refuses([addressKey, emailKey], now)) return { ok: false, limited: true };
  const windowsSince = new Date(Date.parse(now) - LOGIN_WINDOW_MS).toISOString();
  // The address's key first, everywhere: the email's row is written only within the address's limit,
  // and concurrent attempts take the keys' rows in one order.
  const decision = await store.write((tx) =>
    tx.countSignInAttempt(
      [
        { key: addressKey, limit: FAILURES_PER_ADDRESS },
        { key: emailKey, limit: FAILURES_PER_EMAIL },
      ],
      now,
      windowsSince,
    ),
  );
  if (!decision.allowed) {
    const { key, windowStartedAt } = decision.refusedBy;
    refusals.remember(key, now, Date.parse(windowStartedAt) + LOGIN_WINDOW_MS);
    return { ok: false, limited: true };
  }

  const operator = email.length <= LONGEST_EMAIL ? await store.read.findOperator(email) : null;
  const matches = await verifyPassword(input.password, operator?.passwordHash ?? DECOY_HASH);
  if (operator && matches && operator.disabledAt === null) {
    await store.write((tx) => tx.takeBackSignInAttempts(decision.counted));
    refusals.forget([addressKey, emailKey]);
    return { ok: true, email };
  }
  return { ok: false, limited: false };
}
