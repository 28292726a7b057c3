import { generateSync } from 'otplib';
import type { Api } from '../harness';
import { SoftwareAuthenticator } from './software-authenticator';

/**
 * What a customer's app does against the SCA endpoints: verifies the phone (SMS_OTP is implicit
 * from it), logs in, enrols an authenticator app (computing RFC 6238 codes from the enrolment
 * secret, as the app would) and a passkey (with a software authenticator).
 */
export const SANDBOX_CODE = '123456';

/** The TOTP code of the secret at a moment (default now). */
export function totpCode(secret: string, at: Date = new Date()): string {
  return generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) });
}

export class ScaClient {
  readonly authenticator = new SoftwareAuthenticator();
  totpSecret?: string;

  constructor(
    readonly api: Api,
    readonly customerId: string,
  ) {}

  /** `path?customerId=…` (the reference carries the customer in the query on every SCA operation). */
  path(path: string): string {
    return `${path}${path.includes('?') ? '&' : '?'}customerId=${encodeURIComponent(this.customerId)}`;
  }

  /** Verifies the customer's phone in the sandbox, so that SMS_OTP is available. */
  async verifyPhone(): Promise<void> {
    const sent = await this.api.post(`/customers/${this.customerId}/verify-phone`);
    if (sent.status !== 204) throw new Error(`verify-phone: ${sent.status} ${JSON.stringify(sent.body)}`);
    const confirmed = await this.api.post(`/customers/${this.customerId}/verify-phone/confirm`, { code: SANDBOX_CODE });
    if (confirmed.status !== 200) throw new Error(`verify-phone/confirm: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  }

  /** An SMS_OTP login with the sandbox code: opens the SCA session. */
  async loginWithSms(): Promise<{ sessionExpiresAt: string }> {
    const started = await this.api.post(this.path('/sca/login/start'), { factor: 'SMS_OTP' });
    if (started.status !== 200) throw new Error(`login/start: ${started.status} ${JSON.stringify(started.body)}`);
    const done = await this.api.post(this.path('/sca/login/complete'), {
      factor: 'SMS_OTP',
      challengeId: started.body.challengeId,
      code: SANDBOX_CODE,
      endUserIpAddress: '203.0.113.42',
    });
    if (done.status !== 200) throw new Error(`login/complete: ${done.status} ${JSON.stringify(done.body)}`);
    return done.body;
  }

  /** Enrols an authenticator app: start, then confirm with the code the app computes. Returns the recovery codes. */
  async enrolTotp(): Promise<string[]> {
    const started = await this.api.post(this.path('/sca/factors'), { type: 'TOTP' });
    if (started.status !== 200) throw new Error(`factors TOTP: ${started.status} ${JSON.stringify(started.body)}`);
    this.totpSecret = started.body.secretBase32Encoded as string;
    const confirmed = await this.api.post(this.path('/sca/factors/confirm'), { type: 'TOTP', secret: started.body.secret, code: totpCode(this.totpSecret) });
    if (confirmed.status !== 200) throw new Error(`factors/confirm TOTP: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
    return confirmed.body.recoveryCodes;
  }

  /** Enrols the software passkey on the first allowed origin. Returns the factor view. */
  async enrolPasskey(): Promise<{ factor: string; credentialId: string }> {
    const started = await this.api.post(this.path('/sca/factors'), { type: 'PASSKEY' });
    if (started.status !== 200) throw new Error(`factors PASSKEY: ${started.status} ${JSON.stringify(started.body)}`);
    const origin = started.body.allowedOrigins[0] as string;
    const confirmed = await this.api.post(this.path('/sca/factors/confirm'), {
      type: 'PASSKEY',
      origin,
      credential: this.authenticator.attest(started.body.options, origin),
    });
    if (confirmed.status !== 200) throw new Error(`factors/confirm PASSKEY: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
    return confirmed.body.factor;
  }
}
