import { csvFileProblems, MAX_CSV_BYTES, type ParsedCsv } from '../domain/bulk-import';
import { DomainError, type FieldError } from '../../../domain/errors';
import { bulkImportJobView, findBulkImportJob } from '../services/bulk-import';
import { submitBulkImport } from '../services/bulk-import-submission';
import type { UploadedFile } from '../../../api/multipart';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { BulkCsvFieldsSchema, BulkCsvUploadRequestSchema, BulkCustomerImportJobAcceptedSchema, BulkCustomerImportJobSchema } from './bulk-import-schemas';

const tags = ['Customers'];

/** The upload's problems as field errors on `file`: missing, or not a CSV of the format (every problem at once). */
function checkFile(file: UploadedFile | undefined): FieldError[] {
  if (!file) return [{ field: 'file', constraint: 'required', message: 'send the CSV as the file part `file`' }];
  return csvFileProblems(file.bytes).problems;
}

function parsedCsv(file: UploadedFile | undefined): ParsedCsv {
  const checked = file ? csvFileProblems(file.bytes) : undefined;
  if (!checked?.parsed) throw DomainError.invalidInput(checkFile(file));
  return checked.parsed;
}

export const bulkImportRoutes = [
  defineRoute({
    method: 'post',
    path: '/customers/bulk/csv',
    operationId: 'uploadCustomersCsv',
    summary: 'Upload customers via CSV file',
    description: `Import customers from a CSV file (multipart/form-data, at most ${MAX_CSV_BYTES} bytes): answered at once with the job; each row goes through the rules of POST /customers`,
    tags,
    body: BulkCsvFieldsSchema,
    idempotent: true,
    multipart: { fileField: 'file', maxFileBytes: MAX_CSV_BYTES, schema: BulkCsvUploadRequestSchema, checkFile },
    responses: {
      202: {
        description: 'Accepted: the rows are imported by a workflow; follow the job with GET /customers/bulk/jobs/{jobId}',
        schema: BulkCustomerImportJobAcceptedSchema,
      },
      400: {
        description:
          'INVALID_INPUT on file: missing, not UTF-8 CSV, a required column missing, an unknown or repeated column, no rows, too many rows, too large',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
    },
    handler: async ({ em, caller, file, deps, idempotencyKey }) => {
      const accepted = await submitBulkImport(em, deps, {
        platformId: caller.platformId,
        environment: caller.environment,
        csv: parsedCsv(file),
        ...(idempotencyKey ? { idempotencyKey } : {}),
      });
      return { status: 202, body: accepted };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/customers/bulk/jobs/:jobId',
    operationId: 'getBulkCustomerImportJob',
    summary: 'Get bulk import job status',
    description: 'Progress of a bulk import: rows processed, created and failed, with every failed row and why',
    tags,
    params: IdParam('jobId'),
    responses: {
      200: { description: 'The job', schema: BulkCustomerImportJobSchema },
      401: errorResponses[401],
      404: { description: "BULK_UPLOAD_JOB_NOT_FOUND (also another platform's job)", schema: errorResponses[404].schema },
    },
    handler: async ({ em, caller, params }) => ({
      status: 200,
      body: await bulkImportJobView(em, await findBulkImportJob(em, caller.platformId, params.jobId)),
    }),
  }),
];
