import { Migration } from '@mikro-orm/migrations';

export class Migration20261126100000_bulk_customer_imports extends Migration {
  override name = 'Migration20261126100000_bulk_customer_imports';

  override up(): void {
    // A bulk customer import (POST /customers/bulk/csv): the job, processed by the
    // bulkCustomerImport workflow (workflow id = job id).
    this.addSql(`create table bulk_import_jobs (
      id text primary key,
      platform_id text not null references platforms (id),
      environment text not null,
      status text not null,
      total_rows integer not null,
      header jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      completed_at timestamptz null
    )`);
    this.addSql('create index bulk_import_jobs_platform on bulk_import_jobs (platform_id, created_at desc)');
    // The uploaded file, one row per CSV data row (cells as written), so that the workflow
    // carries only the job id and row numbers. outcome is null until the row is processed, then
    // SUCCEEDED (customer_id: the customer it created) or FAILED (error: why, as reported).
    this.addSql(`create table bulk_import_rows (
      job_id text not null references bulk_import_jobs (id) on delete cascade,
      row_number integer not null,
      cells jsonb not null,
      outcome text null,
      customer_id text null,
      error jsonb null,
      processed_at timestamptz null,
      primary key (job_id, row_number)
    )`);
  }
}
