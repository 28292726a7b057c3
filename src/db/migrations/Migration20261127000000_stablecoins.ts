import { Migration } from '@mikro-orm/migrations';

export class Migration20261127000000_stablecoins extends Migration {
  override name = 'Migration20261127000000_stablecoins';

  override up(): void {
    // A platform's link to its stablecoin provider account. The credentials are sealed with the
    // master key; one live (not REVOKED) link per provider account.
    this.addSql(`
      create table stablecoin_provider_accounts (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        provider text not null check (provider in ('BRALE')),
        provider_account_id text not null,
        status text not null check (status in ('ACTIVE', 'INVALID', 'REVOKED')),
        sealed_credentials text not null,
        last_verified_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(
      `create unique index stablecoin_provider_accounts_live on stablecoin_provider_accounts (platform_id, environment, provider, provider_account_id) where status <> 'REVOKED'`,
    );
    this.addSql('create index stablecoin_provider_accounts_platform_created on stablecoin_provider_accounts (platform_id, created_at)');

    // A provider-created token registered with the service. A symbol or token identifier is taken
    // while its registration is alive: a REJECTED or FAILED one may be registered again.
    this.addSql(`
      create table stablecoins (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        provider_account_link_id text not null references stablecoin_provider_accounts(id),
        provider text not null,
        provider_token_identifier text not null,
        network_token_identifier text not null,
        network text not null check (network in ('SPARK')),
        name text not null,
        symbol text not null,
        base_currency text not null,
        decimals int not null check (decimals between 0 and 18),
        issuance_status text not null check (issuance_status in ('PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED')),
        grid_operations_status text not null check (grid_operations_status in ('NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED')),
        currency text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    const alive = `where issuance_status not in ('REJECTED', 'FAILED')`;
    this.addSql(`create unique index stablecoins_symbol_alive on stablecoins (platform_id, environment, symbol) ${alive}`);
    this.addSql(`create unique index stablecoins_provider_token_alive on stablecoins (platform_id, environment, provider_token_identifier) ${alive}`);
    this.addSql(`create unique index stablecoins_network_token_alive on stablecoins (platform_id, environment, network_token_identifier) ${alive}`);
    this.addSql('create index stablecoins_platform_created on stablecoins (platform_id, created_at)');

    // Mints and burns. amount is in the token's smallest unit (a decimal string: 18-decimal tokens
    // outgrow bigint); fiat_amount is the same value in the base currency's minor unit.
    this.addSql(`
      create table stablecoin_operations (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        stablecoin_id text not null references stablecoins(id),
        provider_account_link_id text not null references stablecoin_provider_accounts(id),
        operation_type text not null check (operation_type in ('MINT', 'BURN')),
        status text not null check (status in ('CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED')),
        amount text not null check (amount ~ '^[1-9][0-9]*$'),
        fiat_amount bigint not null check (fiat_amount > 0),
        source jsonb not null,
        destination jsonb not null,
        funding_instructions jsonb,
        estimated_delivery jsonb,
        expires_at timestamptz,
        provider_status text,
        provider_reference text,
        failure_reason text,
        description text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql('create index stablecoin_operations_coin_created on stablecoin_operations (stablecoin_id, created_at)');
    this.addSql('create index stablecoin_operations_platform_created on stablecoin_operations (platform_id, created_at)');

    // How the provider knows an external account (its "address"), per provider account link.
    this.addSql(`
      create table stablecoin_account_links (
        provider_account_link_id text not null references stablecoin_provider_accounts(id),
        external_account_id text not null,
        status text not null check (status in ('LINKED', 'PENDING', 'REFUSED', 'MANUAL_LINK_REQUIRED')),
        provider_address_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (provider_account_link_id, external_account_id)
      )`);
  }
}
