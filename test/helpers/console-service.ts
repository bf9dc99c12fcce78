import assert from 'node:assert/strict';
import { addOperator } from '../../src/console/operator-accounts.js';
import { ConsoleClient } from './console-client.js';
import { startTestService, type TestService, type TestServiceOptions } from './test-service.js';

export interface SignedInService {
  service: TestService;
  /** The operator's browser, signed in. */
  browser: ConsoleClient;
}

/**
 * A test service in the test's own process, with agency AG1 and a console operator (Desk One,
 * `email`) signed in: what the console's in-process files start from.
 */
export async function startSignedInService(
  email: string,
  password: string,
  options: TestServiceOptions = {},
): Promise<SignedInService> {
  const service = await startTestService(options);
  try {
    await service.addAgency('AG1');
    await addOperator(service.store, () => new Date().toISOString(), { email, name: 'Desk One', password });
    const browser = new ConsoleClient(service.baseUrl);
    assert.equal((await browser.signIn(email, password)).status, 303);
    return { service, browser };
  } catch (error) {
    await service.close();
    throw error;
  }
}
