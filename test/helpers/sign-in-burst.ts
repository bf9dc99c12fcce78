/**
 * Sign-in attempts sent at once, for the tests of the sign-in limits: each attempt is a browser of
 * its own that has fetched the sign-in form beforehand, so that only the posts leave together.
 */
import { ConsoleClient, csrfOf } from './console-client.js';

export interface Attempt {
  email: string;
  password: string;
}

/** How many answers had each status, e.g. `{ 401: 5, 429: 35 }`. */
export type StatusTally = Record<number, number>;

/** Sends every attempt at once, to the services at `baseUrls` in turn; tallies the answers' statuses. */
export async function signInAtOnce(baseUrls: readonly string[], attempts: readonly Attempt[]): Promise<StatusTally> {
  const prepared = await Promise.all(
    attempts.map(async (attempt, index) => {
      const browser = new ConsoleClient(baseUrls[index % baseUrls.length]!);
      const form = await browser.request('/console/login');
      return { browser, fields: { _csrf: csrfOf(form.text), email: attempt.email, password: attempt.password } };
    }),
  );
  const answers = await Promise.all(
    prepared.map(({ browser, fields }) => browser.request('/console/login', { form: fields })),
  );
  const tally: StatusTally = {};
  for (const { status } of answers) tally[status] = (tally[status] ?? 0) + 1;
  return tally;
}

/** `count` attempts alike. */
export function repeated(count: number, attempt: Attempt): Attempt[] {
  return Array.from({ length: count }, () => attempt);
}
