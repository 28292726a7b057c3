import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from '../../platforms';

export type BulkImportStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

/** A bulk customer import (POST /customers/bulk/csv); its rows are BulkImportRow. */
@Entity({ tableName: 'bulk_import_jobs' })
export class BulkImportJob {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  /** Environment of the token that uploaded the file: the customers' webhooks are raised in it. */
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'string' }) status!: BulkImportStatus;
  @Property({ type: 'integer' }) totalRows!: number;
  /** The CSV's column names, in file order. */
  @Property({ type: 'json' }) header!: string[];
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
  @Property({ type: 'datetime', nullable: true }) completedAt?: Date | null;
}

/** What a failed row reports: the reference's BulkCustomerImportErrorEntry without its correlationId. */
export interface RowError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** One data row of an upload (row 1 is the line after the header) and, once processed, its outcome. */
@Entity({ tableName: 'bulk_import_rows' })
export class BulkImportRow {
  @PrimaryKey({ type: 'string' }) jobId!: string;
  @PrimaryKey({ type: 'integer' }) rowNumber!: number;
  @Property({ type: 'json' }) cells!: string[];
  @Property({ type: 'string', nullable: true }) outcome?: 'SUCCEEDED' | 'FAILED' | null;
  @Property({ type: 'string', nullable: true }) customerId?: string | null;
  @Property({ type: 'json', nullable: true }) error?: RowError | null;
  @Property({ type: 'datetime', nullable: true }) processedAt?: Date | null;
}
