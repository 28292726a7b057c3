import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { DomainError, type FieldError } from '../domain/errors';

/** One uploaded file, held in memory. */
export interface UploadedFile {
  fieldName: string;
  originalName: string;
  /**
   * The part's Content-Type exactly as sent (parameters included), or null when the part had no
   * Content-Type header. (busboy reports a missing header as `text/plain`, the RFC 7578 default
   * for form fields; a file's type is decided by its bytes, so the absence is kept as absence.)
   */
  declaredType: string | null;
  bytes: Buffer;
}

/** What the headers of one part of a multipart body say. */
export interface PartHeaders {
  name?: string;
  filename?: string;
  /** null when the part has no Content-Type header. */
  contentType: string | null;
}

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** The boundary of a multipart Content-Type header value, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** `name="value"` (or unquoted) parameters of a header value, names lower-cased. */
function headerParams(value: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const m of value.matchAll(/;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
    params[m[1]!.toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!.trim();
  }
  return params;
}

/**
 * The headers of every part of a complete multipart body, in order. Only what busboy does not
 * tell (whether a part carried a Content-Type at all) is read from here; the parts themselves
 * are parsed by multer. Stops quietly at anything malformed (busboy reports that).
 */
export function multipartPartHeaders(raw: Buffer, boundary: string): PartHeaders[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: PartHeaders[] = [];
  let at = raw.indexOf(delimiter);
  while (at >= 0 && parts.length < 1000) {
    at += delimiter.length;
    if (raw[at] === 0x2d && raw[at + 1] === 0x2d) break; // the closing delimiter
    const lineEnd = raw.indexOf(CRLF, at);
    if (lineEnd < 0) break;
    const start = lineEnd + 2;
    const end = raw.subarray(start, start + 2).equals(CRLF) ? start : raw.indexOf(HEADERS_END, start);
    if (end < 0) break;
    const headers: Record<string, string> = {};
    for (const line of raw.subarray(start, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] ??= line.slice(colon + 1).trim();
    }
    const disposition = headerParams(headers['content-disposition'] ?? '');
    parts.push({
      ...(disposition.name !== undefined ? { name: disposition.name } : {}),
      ...(disposition['filename*'] !== undefined || disposition.filename !== undefined ? { filename: disposition['filename*'] ?? disposition.filename } : {}),
      contentType: headers['content-type'] ?? null,
    });
    const next = raw.indexOf(Buffer.concat([CRLF, delimiter]), end);
    at = next < 0 ? -1 : next + 2;
  }
  return parts;
}

/**
 * Keeps a copy of the request body as it streams to multer (at most `cap` bytes; past that the
 * copy is dropped and `bytes()` is null). Attached in the same tick as multer's pipe, so it sees
 * every chunk busboy sees.
 */
function copyBody(req: Request, cap: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const onData = (chunk: Buffer) => {
    if (overflow) return;
    size += chunk.length;
    if (size > cap) {
      overflow = true;
      chunks.length = 0;
      return;
    }
    chunks.push(chunk);
  };
  req.on('data', onData);
  return {
    bytes: () => (overflow ? null : Buffer.concat(chunks)),
    stop: () => req.off('data', onData),
  };
}

export interface MultipartOptions {
  /** The form field carrying the file. */
  fileField: string;
  maxFileBytes: number;
}

/** What the text side of a form may hold. */
const FORM_LIMITS = { fields: 20, fieldSize: 64 * 1024, fieldNameSize: 100, parts: 25 } as const;
/** Room for the boundaries and the part headers of a form within FORM_LIMITS. */
const FORM_FRAMING_BYTES = 64 * 1024;

/** The largest multipart body a route with these options accepts: the file and every text field multer accepts. */
export function multipartBodyLimit(options: MultipartOptions): number {
  return options.maxFileBytes + FORM_LIMITS.fields * FORM_LIMITS.fieldSize + FORM_FRAMING_BYTES;
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
      limits: { fileSize: options.maxFileBytes + 1, files: 1, ...FORM_LIMITS },
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
        return invalid({
          field: options.fileField,
          constraint: 'maxSize',
          message: `the file must be at most ${options.maxFileBytes} bytes (${Math.round(options.maxFileBytes / 1024 / 1024)} MB)`,
        });
      case 'LIMIT_FILE_COUNT':
        return invalid({ field: options.fileField, constraint: 'maxItems', message: 'send exactly one file' });
      case 'LIMIT_UNEXPECTED_FILE':
        return invalid({
          field: err.field ?? options.fileField,
          constraint: 'unexpectedFile',
          message: `the only file accepted is the one in the \`${options.fileField}\` field`,
        });
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
  return DomainError.invalidInput(
    [{ field: 'body', constraint: 'multipart', message: 'The request body is not a well-formed multipart/form-data body' }],
    'Malformed multipart body',
  );
}

/**
 * Parses a multipart/form-data request in memory: text fields into `req.body`, the single file
 * returned. Anything but multipart/form-data is refused, naming the expected content type.
 */
export async function receiveMultipart(req: Request, res: Response, options: MultipartOptions): Promise<UploadedFile | undefined> {
  if (!req.is('multipart/form-data')) {
    throw DomainError.invalidInput(
      [{ field: 'body', constraint: 'contentType', message: 'send the request as multipart/form-data' }],
      'Expected a multipart/form-data body',
    );
  }
  const copy = copyBody(req, multipartBodyLimit(options));
  try {
    await new Promise<void>((resolve, reject) => {
      uploader(options)(req, res, (err?: unknown) => (err ? reject(multipartError(err, options)) : resolve()));
    });
  } finally {
    copy.stop();
  }
  const file = (req as Request & { file?: Express.Multer.File }).file;
  const raw = copy.bytes();
  const boundary = multipartBoundary(req.get('content-type'));
  const parts = raw && boundary ? multipartPartHeaders(raw, boundary) : [];
  // A part without a filename is not a file to busboy (a text field, decoded as text, or with
  // Content-Type application/octet-stream a file multer drops): refused, not taken as missing.
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body[options.fileField] === 'string' || (!file && parts.some((p) => p.name === options.fileField && !p.filename))) {
    throw DomainError.invalidInput([
      {
        field: options.fileField,
        constraint: 'filename',
        message: `send the file as a file part: Content-Disposition: form-data; name="${options.fileField}"; filename="..."`,
      },
    ]);
  }
  if (!file) return undefined;
  const part = parts.find((p) => p.name === file.fieldname && p.filename !== undefined);
  // Without the copy (never for a body multer accepted) busboy's type is the best there is.
  const declaredType = part ? part.contentType || null : file.mimetype;
  return { fieldName: file.fieldname, originalName: file.originalname, declaredType, bytes: file.buffer };
}

/** True for multipart requests, which the JSON body parser must leave to multer. */
export function isMultipart(req: { headers: Record<string, unknown> }): boolean {
  return String(req.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('multipart/');
}
