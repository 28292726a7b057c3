import { KNOWN_COLUMNS, MAX_CSV_BYTES, MAX_CSV_ROWS, REQUIRED_COLUMNS } from '../domain/bulk-import';
import { z } from '../../../api/openapi-registry';

// Bulk customer import (reference: uploadCustomersCsv, getBulkCustomerImportJob).

/** The upload's text fields: none; the form is its file. */
export const BulkCsvFieldsSchema = z.object({}).strict();

export const BulkCsvUploadRequestSchema = z
  .object({
    file: z.string().openapi({
      type: 'string',
      format: 'binary',
      description: `CSV (UTF-8, comma-separated, RFC 4180 quoting), at most ${MAX_CSV_BYTES} bytes and ${MAX_CSV_ROWS} rows. The first line names the columns; required: ${REQUIRED_COLUMNS.join(', ')}; known: ${KNOWN_COLUMNS.join(', ')}.`,
    }),
  })
  .openapi('BulkCustomerCsvUploadRequest');

export const BulkCustomerImportJobAcceptedSchema = z
  .object({
    jobId: z.string().openapi({ example: 'Job:019542f5-b3e7-1d02-0000-000000000006' }),
    status: z.enum(['PENDING', 'PROCESSING']),
  })
  .openapi('BulkCustomerImportJobAccepted');

export const BulkCustomerImportErrorEntrySchema = z
  .object({
    correlationId: z.string().openapi({ description: 'The failed row: row_<n>, n counting data rows from 1 (the line after the header)', example: 'row_2' }),
    code: z.string().openapi({
      description: 'INVALID_INPUT (details.errors names each invalid column), CONFLICT, UMA_ADDRESS_EXISTS, …: what POST /customers would have answered',
    }),
    message: z.string(),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "row, platformCustomerId (when the row has one), and the error's own details" }),
  })
  .openapi('BulkCustomerImportErrorEntry');

export const BulkCustomerImportJobSchema = z
  .object({
    id: z.string().openapi({ example: 'Job:019542f5-b3e7-1d02-0000-000000000006' }),
    status: z.enum(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']).openapi({ description: 'FAILED when no row could be created' }),
    progress: z.object({
      total: z.number().int(),
      processed: z.number().int(),
      successful: z.number().int(),
      failed: z.number().int(),
    }),
    errors: z.array(BulkCustomerImportErrorEntrySchema),
    completedAt: z.string().optional().openapi({ format: 'date-time', description: 'Only once COMPLETED or FAILED' }),
  })
  .openapi('BulkCustomerImportJob');
