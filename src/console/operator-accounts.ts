import { AdminError } from '../service/agency-admin.js';
import type { Clock } from '../runtime/clock.js';
import type { Operator } from '../store/repositories/operators-repository.js';
import type { Store } from '../store/store.js';
import { hashPassword } from './password-hash.js';

export const MIN_PASSWORD_LENGTH = 12;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Emails are compared without regard to case: the one typed at sign-in need not match the one given at creation. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkPassword(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    throw new AdminError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  if ([...password].length > 1024) throw new AdminError('The password must be at most 1024 characters.');
}

export async function addOperator(
  store: Store,
  clock: Clock,
  input: { email: string; name: string; password: string },
): Promise<void> {
  const email = normalEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254) throw new AdminError('--email must be an e-mail address.');
  if (input.name.trim().length < 1 || input.name.length > 200)
    throw new AdminError('--name must be 1 to 200 characters.');
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  await store.write(async (tx) => {
    if (await tx.findOperator(email)) throw new AdminError(`Operator ${email} exists already.`);
    await tx.insertOperator({ email, name: input.name.trim(), passwordHash }, clock());
  });
}

export function operators(store: Store): Promise<Operator[]> {
  return store.read.listOperators();
}

async function existing(store: Store, email: string): Promise<string> {
  const normal = normalEmail(email);
  if (!(await store.read.findOperator(normal)))
    throw new AdminError(`No operator ${normal}; see: airorder operator list`);
  return normal;
}

/** Disabled at once: their sessions end and they cannot sign in again. */
export async function disable(store: Store, clock: Clock, email: string): Promise<void> {
  const normal = await existing(store, email);
  await store.write(async (tx) => {
    await tx.disableOperator(normal, clock());
    await tx.deleteSessionsOf(normal);
  });
}

/** A new password ends the operator's sessions: whoever knew the old one is signed out. */
export async function changePassword(store: Store, clock: Clock, email: string, password: string): Promise<void> {
  const normal = await existing(store, email);
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  await store.write(async (tx) => {
    await tx.replacePassword(normal, passwordHash, clock());
    await tx.deleteSessionsOf(normal);
  });
}
