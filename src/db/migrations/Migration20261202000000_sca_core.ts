import { Migration } from '@mikro-orm/migrations';

export class Migration20261202000000_sca_core extends Migration {
  override name = 'Migration20261202000000_sca_core';

  override up(): void {
    // Enrolled TOTP and passkey factors (SMS_OTP is implicit from the verified phone). The TOTP
    // secret is sealed with the master key; recovery codes are kept as keyed hashes only.
    this.addSql(`
      create table sca_factors (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text not null references customers(id) deferrable initially deferred,
        type text not null check (type in ('TOTP', 'PASSKEY')),
        status text not null check (status in ('PENDING', 'ACTIVE')),
        credential_id text,
        name text,
        sealed_totp_secret text,
        totp_last_used_step integer,
        recovery_code_hashes jsonb,
        passkey_public_key text,
        passkey_counter bigint check (passkey_counter >= 0),
        passkey_transports jsonb,
        activated_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check ((type = 'TOTP') = (sealed_totp_secret is not null)),
        check (type = 'TOTP' or status = 'PENDING' or (credential_id is not null and passkey_public_key is not null and passkey_counter is not null))
      )`);
    // One active factor of a type per customer (one passkey, one authenticator app); one pending
    // TOTP enrolment (a new start replaces it). A credential id is unique within its platform
    // only: a clash with another platform's passkey must not tell that the other exists.
    this.addSql(`create unique index sca_factors_customer_active_type on sca_factors (customer_id, type) where status = 'ACTIVE'`);
    this.addSql(`create unique index sca_factors_customer_pending_totp on sca_factors (customer_id) where status = 'PENDING' and type = 'TOTP'`);
    this.addSql(`create unique index sca_factors_platform_credential on sca_factors (platform_id, credential_id) where credential_id is not null`);

    // Challenges a proof must answer (logins, passkey enrolments, and the quote and beneficiary
    // challenges built on them). Single-use; a code is kept as a keyed hash only.
    this.addSql(`
      create table sca_challenges (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text not null references customers(id) deferrable initially deferred,
        purpose text not null,
        factor text not null check (factor in ('SMS_OTP', 'TOTP', 'PASSKEY')),
        binding text,
        code_hash text,
        destination text,
        webauthn_challenge text,
        attempts integer not null default 0 check (attempts >= 0),
        expires_at timestamptz not null,
        consumed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index sca_challenges_customer on sca_challenges (customer_id, purpose, created_at)`);

    this.addSql(`
      create table sca_sessions (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text not null references customers(id) deferrable initially deferred,
        factor text not null,
        end_user_ip_address text not null,
        expires_at timestamptz not null,
        revoked_at timestamptz,
        created_at timestamptz not null
      )`);
    this.addSql(`create index sca_sessions_customer on sca_sessions (customer_id, expires_at)`);

    this.addSql(`
      create table sca_security_states (
        customer_id text primary key references customers(id) deferrable initially deferred,
        platform_id text not null references platforms(id) deferrable initially deferred,
        failed_attempts integer not null check (failed_attempts >= 0),
        suspended boolean not null,
        locked_until timestamptz,
        updated_at timestamptz not null
      )`);

    this.addSql(`
      create table sca_factor_resets (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text not null references customers(id) deferrable initially deferred,
        factor text not null check (factor in ('SMS_OTP', 'TOTP', 'PASSKEY')),
        status text not null check (status in ('INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED', 'COMPLETED', 'REJECTED', 'EXPIRED')),
        expires_at timestamptz not null,
        completed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index sca_factor_resets_customer_created on sca_factor_resets (customer_id, created_at)`);
  }
}
