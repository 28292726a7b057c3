import { Migration } from '@mikro-orm/migrations';

export class Migration20261121200000_verification extends Migration {
  override name = 'Migration20261121200000_verification';

  override up(): void {
    this.addSql(`
      create table beneficial_owners (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text not null references customers(id) deferrable initially deferred,
        roles jsonb not null,
        ownership_percentage integer not null check (ownership_percentage between 0 and 100),
        personal_info jsonb not null,
        identifier_encrypted text,
        kyc_status text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index beneficial_owners_customer_idx on beneficial_owners(platform_id, customer_id, created_at desc, id desc)`);

    this.addSql(`
      create table documents (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        document_holder text not null,
        customer_id text not null references customers(id) deferrable initially deferred,
        document_type text not null,
        side text check (side in ('FRONT', 'BACK')),
        country text not null,
        document_number text,
        issuing_authority text,
        file_name text not null,
        mime_type text not null check (mime_type in ('application/pdf', 'image/jpeg', 'image/png')),
        size_bytes integer not null check (size_bytes > 0 and size_bytes <= 10485760),
        sha256 text not null,
        submitted_at timestamptz,
        submitted_in_verification_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    // One document per holder, type and side: a second upload is DOCUMENT_ALREADY_EXISTS (replace with PUT).
    this.addSql(`create unique index documents_holder_type_side on documents(document_holder, document_type, coalesce(side, ''))`);
    this.addSql(`create index documents_platform_created_idx on documents(platform_id, created_at desc, id desc)`);
    this.addSql(`create index documents_customer_idx on documents(customer_id)`);
    this.addSql(`
      create table document_files (
        document_id text primary key references documents(id) on delete cascade deferrable initially deferred,
        content bytea not null
      )`);

    this.addSql(`
      create table verifications (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text not null unique references customers(id) deferrable initially deferred,
        verification_status text not null,
        errors jsonb not null default '[]',
        submissions integer not null default 0,
        last_submission_key text,
        pending_outcome text check (pending_outcome in ('APPROVED', 'REJECTED')),
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index verifications_platform_created_idx on verifications(platform_id, created_at desc, id desc)`);

    this.addSql(`
      create table kyc_links (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text not null references customers(id) deferrable initially deferred,
        token_hash text not null unique,
        redirect_uri text,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null
      )`);
    this.addSql(`create index kyc_links_customer_idx on kyc_links(customer_id)`);
  }
}
