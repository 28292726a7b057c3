import express, { type NextFunction, type Request, type Response } from 'express';
import { DomainError } from '../domain/errors';
import { isMultipart, multipartBodyLimit, type MultipartOptions } from './multipart';

/** What a JSON operation accepts unless its route says otherwise: far above any valid request. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

/** The largest body a route accepts: its own `bodyLimitBytes`, else its upload's, else the JSON default. */
export function bodyLimitOf(spec: { bodyLimitBytes?: number; multipart?: MultipartOptions }): number {
  return spec.bodyLimitBytes ?? (spec.multipart ? multipartBodyLimit(spec.multipart) : JSON_BODY_LIMIT_BYTES);
}

export function payloadTooLarge(limitBytes: number): DomainError {
  return new DomainError('PAYLOAD_TOO_LARGE', `The request body is larger than the ${limitBytes} bytes this operation accepts`, { maxBytes: limitBytes });
}

/**
 * The body reader of one route. A declared Content-Length over the limit is refused before a byte
 * is read; a JSON body is parsed only up to the limit (counted after decompression, and for
 * chunked bodies as they arrive). Multipart bodies are left to multer, whose per-part limits add
 * up to the same bound.
 */
export function receiveBody(limitBytes: number) {
  const json = express.json({ limit: limitBytes, strict: false, type: (req) => !isMultipart(req) });
  return (req: Request, res: Response, next: NextFunction): void => {
    const declared = Number(req.get('content-length') ?? 0);
    if (declared > limitBytes) throw payloadTooLarge(limitBytes);
    json(req, res, next);
  };
}
