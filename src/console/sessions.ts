import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../runtime/clock.js';
import type { Repositories, Store } from '../store/store.js';

/** A session not used for this long has ended; every request it makes starts the time again. */
export const SESSION_IDLE_MS = 12 * 3_600_000;

export interface ConsoleSession {
  sessionHash: string;
  email: string;
  name: string;
  csrfToken: string;
}

export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A new session: its id goes to the browser, only its hash into the store; `record` is written with it. */
export async function openSession(
  store: Store,
  clock: Clock,
  email: string,
  record?: (tx: Repositories) => Promise<void>,
): Promise<{ sessionId: string }> {
  const sessionId = randomSecret();
  const now = clock();
  await store.write(async (tx) => {
    await tx.deleteIdleSessions(new Date(Date.parse(now) - SESSION_IDLE_MS).toISOString());
    await tx.insertSession({ sessionHash: hashSessionId(sessionId), email, csrfToken: randomSecret() }, now);
    await record?.(tx);
  });
  return { sessionId };
}

/** The session of this id, if it exists, has been used within the idle time and its operator is not disabled. */
export async function resumeSession(store: Store, clock: Clock, sessionId: string): Promise<ConsoleSession | null> {
  const sessionHash = hashSessionId(sessionId);
  const found = await store.read.findSession(sessionHash);
  if (!found) return null;
  const now = clock();
  if (found.disabledAt !== null || Date.parse(found.lastSeenAt) + SESSION_IDLE_MS <= Date.parse(now)) {
    await store.write((tx) => tx.deleteSession(sessionHash));
    return null;
  }
  // One write a minute at most: the idle time is 12 hours, a minute more or less does not matter.
  if (Date.parse(now) - Date.parse(found.lastSeenAt) >= 60_000)
    await store.write((tx) => tx.touchSession(sessionHash, now));
  return { sessionHash, email: found.email, name: found.name, csrfToken: found.csrfToken };
}

export async function closeSession(
  store: Store,
  sessionHash: string,
  record?: (tx: Repositories) => Promise<void>,
): Promise<void> {
  await store.write(async (tx) => {
    await tx.deleteSession(sessionHash);
    await record?.(tx);
  });
}
