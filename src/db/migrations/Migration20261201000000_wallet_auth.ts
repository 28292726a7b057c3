import { Migration } from '@mikro-orm/migrations';

export class Migration20261201000000_wallet_auth extends Migration {
  override name = 'Migration20261201000000_wallet_auth';

  override up(): void {
    // Embedded-wallet credentials. Revoked rows stay (revoked_at set); the unique indexes hold for live ones.
    this.addSql(`
      create table auth_credentials (
        id text primary key,
        platform_id text not null,
        account_id text not null references internal_accounts(id) deferrable initially deferred,
        type text not null check (type in ('EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH')),
        nickname text not null,
        email text,
        phone_number text,
        passkey_credential_id text,
        passkey_public_key text,
        passkey_counter bigint,
        oauth_issuer text,
        oauth_audience text,
        oauth_subject text,
        challenge_sealed text,
        challenge_expires_at timestamptz,
        challenge_attempts integer not null default 0,
        challenge_credential_set text,
        revoked_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index auth_credentials_account_idx on auth_credentials(account_id, created_at)`);
    // One EMAIL_OTP and one SMS_OTP per wallet (spec §2.8).
    this.addSql(
      `create unique index auth_credentials_one_otp_per_type on auth_credentials(account_id, type) where revoked_at is null and type in ('EMAIL_OTP', 'SMS_OTP')`,
    );
    // A passkey is unique per WebAuthn credential id; an OIDC identity once per wallet.
    this.addSql(
      `create unique index auth_credentials_passkey_credential_id on auth_credentials(passkey_credential_id) where revoked_at is null and passkey_credential_id is not null`,
    );
    this.addSql(
      `create unique index auth_credentials_oauth_identity on auth_credentials(account_id, oauth_issuer, oauth_audience, oauth_subject) where revoked_at is null and type = 'OAUTH'`,
    );

    this.addSql(`
      create table auth_sessions (
        id text primary key,
        platform_id text not null,
        account_id text not null references internal_accounts(id) deferrable initially deferred,
        credential_id text not null references auth_credentials(id) deferrable initially deferred,
        public_key text not null,
        expires_at timestamptz not null,
        revoked_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    // A signed retry finds the signer by wallet and key.
    this.addSql(`create index auth_sessions_account_key_idx on auth_sessions(account_id, public_key)`);
    this.addSql(`create index auth_sessions_credential_idx on auth_sessions(credential_id)`);

    this.addSql(`
      create table signed_requests (
        id text primary key,
        platform_id text not null,
        account_id text not null references internal_accounts(id) deferrable initially deferred,
        operation text not null,
        conflict_group text,
        request_hash text not null,
        payload_to_sign text not null,
        data jsonb,
        expires_at timestamptz not null,
        consumed_at timestamptz,
        signed_by_session_id text,
        created_at timestamptz not null
      )`);
    this.addSql(`create index signed_requests_pending_group_idx on signed_requests(account_id, conflict_group, created_at) where consumed_at is null`);

    // Wallets opened before this version get the EMAIL_OTP credential every wallet starts with
    // (the reference: "initialized with an EMAIL_OTP credential tied to the customer email").
    this.addSql(`
      insert into auth_credentials (id, platform_id, account_id, type, nickname, email, created_at, updated_at)
      select 'AuthMethod:' || gen_random_uuid(), a.platform_id, a.id, 'EMAIL_OTP', c.email, c.email, now(), now()
      from internal_accounts a join customers c on c.id = a.customer_id
      where a.type = 'EMBEDDED_WALLET' and c.email is not null and c.email <> ''`);
  }
}
