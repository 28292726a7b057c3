import type { Region } from '../../../src/contexts/platforms/entities/Platform';
import type { Harness } from '../harness';
import { seedCustomer } from '../onboarding-seed';
import { ScaClient } from './sca-client';

/**
 * A platform of an SCA region (EU by default) with one customer and the customer's SCA client.
 * `phoneVerified` (default true) verifies the phone so that SMS_OTP is available; `loggedIn`
 * (default false) also opens an SCA session with an SMS login.
 */
export async function scaCustomer(h: Harness, options: { region?: Region; phoneVerified?: boolean; loggedIn?: boolean } = {}) {
  const p = await h.platform({ region: options.region ?? 'EU' });
  const { customer } = await seedCustomer(h, p.platform.id);
  const client = new ScaClient(p.api, customer.id);
  if (options.phoneVerified ?? true) await client.verifyPhone();
  if (options.loggedIn) await client.loginWithSms();
  return { ...p, customerId: customer.id, client };
}
