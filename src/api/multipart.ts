import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { DomainError, type FieldError } from '../domain/errors';

/** One uploaded file, held in memory. */
export interface UploadedFile {
  fieldName: string;
  originalName: string;
  declaredType: string;
  bytes: Buffer;
}

export interface MultipartOptions {
  /** The form field carrying the file. */
  fileField: string;
  maxFileBytes: number;
}

const uploaders = new Map<string, ReturnType<ReturnType<typeof multer>['single']>>();

function uploader(options: MultipartOptions) {
  const key = `${options.fileField}:${options.maxFileBytes}`;
  let handler = uploaders.get(key);
  if (!handler) {
    handler = multer({
      storage: multer.memoryStorage(),
      // busboy flags a file as truncated once it reaches the limit, so one byte more lets
      // a file of exactly maxFileBytes through; anything larger is LIMIT_FILE_SIZE.
      limits: { fileSize: options.maxFileBytes + 1, files: 1, fields: 20, fieldSize: 64 * 1024, fieldNameSize: 100, parts: 25 },
    }).single(options.fileField);
    uploaders.set(key, handler);
  }
  return handler;
}

/** multer's and busboy's failures as the §7 error body: 400 INVALID_INPUT naming the field. */
export function multipartError(err: unknown, options: MultipartOptions): DomainError {
  const invalid = (e: FieldError) => DomainError.invalidInput([e]);
  if (err instanceof MulterError) {
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return invalid({ field: options.fileField, constraint: 'maxSize', message: `the file must be at most ${options.maxFileBytes} bytes (10 MB)` });
      case 'LIMIT_FILE_COUNT':
        return invalid({ field: options.fileField, constraint: 'maxItems', message: 'send exactly one file' });
      case 'LIMIT_UNEXPECTED_FILE':
        return invalid({ field: err.field ?? options.fileField, constraint: 'unexpectedFile', message: `the only file accepted is the one in the \`${options.fileField}\` field` });
      case 'LIMIT_FIELD_VALUE':
        return invalid({ field: err.field ?? 'body', constraint: 'maxLength', message: 'the field value is too long' });
      case 'LIMIT_FIELD_KEY':
        return invalid({ field: 'body', constraint: 'maxLength', message: 'a field name is too long' });
      case 'LIMIT_FIELD_COUNT':
      case 'LIMIT_PART_COUNT':
        return invalid({ field: 'body', constraint: 'maxItems', message: 'the form has too many fields' });
      default:
        return invalid({ field: 'body', constraint: 'multipart', message: err.message });
    }
  }
  return DomainError.invalidInput([{ field: 'body', constraint: 'multipart', message: 'The request body is not a well-formed multipart/form-data body' }], 'Malformed multipart body');
}

/**
 * Parses a multipart/form-data request in memory: text fields into `req.body`, the single file
 * returned. Anything but multipart/form-data is refused, naming the expected content type.
 */
export async function receiveMultipart(req: Request, res: Response, options: MultipartOptions): Promise<UploadedFile | undefined> {
  if (!req.is('multipart/form-data')) {
    throw DomainError.invalidInput([{ field: 'body', constraint: 'contentType', message: 'send the request as multipart/form-data' }], 'Expected a multipart/form-data body');
  }
  await new Promise<void>((resolve, reject) => {
    uploader(options)(req, res, (err?: unknown) => (err ? reject(multipartError(err, options)) : resolve()));
  });
  const file = (req as Request & { file?: Express.Multer.File }).file;
  if (!file) return undefined;
  return { fieldName: file.fieldname, originalName: file.originalname, declaredType: file.mimetype, bytes: file.buffer };
}

/** True for multipart requests, which the JSON body parser must leave to multer. */
export function isMultipart(req: { headers: Record<string, unknown> }): boolean {
  return String(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');
}
