import express, { type NextFunction, type Request, type Response } from 'express';
import { DomainError } from '../domain/errors';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepError } from './input-guards';
import { isMultipart, multipartBodyLimit, type MultipartOptions } from './multipart';
import { invalidUtf8Errors, unpairedSurrogateErrors } from './text-encoding';

/** What a JSON operation accepts unless its route says otherwise: far above any valid request. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

/** The largest body a route accepts: its own `bodyLimitBytes`, else its upload's, else the JSON default. */
export function bodyLimitOf(spec: { bodyLimitBytes?: number; multipart?: MultipartOptions }): number {
  return spec.bodyLimitBytes ?? (spec.multipart ? multipartBodyLimit(spec.multipart) : JSON_BODY_LIMIT_BYTES);
}

export function payloadTooLarge(limitBytes: number): DomainError {
  return new DomainError('PAYLOAD_TOO_LARGE', `The request body is larger than the ${limitBytes} bytes this operation accepts`, { maxBytes: limitBytes });
}

/** What a JSON operation reads: `application/json` (any charset) or a `+json` type. */
const JSON_TYPES = ['application/json', 'application/*+json'];

export function unsupportedMediaType(): DomainError {
  return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON, sent with Content-Type: application/json', {
    contentType: 'application/json',
  });
}

/**
 * The body reader of one route. A declared Content-Length over the limit is refused before a byte
 * is read; a JSON body is parsed only up to the limit (counted after decompression, and for
 * chunked bodies as they arrive) and refused when it nests deeper than MAX_JSON_DEPTH. A JSON
 * operation reads JSON only: a non-empty body under another content type, or none, is 415 — a
 * cross-site form or `fetch` can send text/plain without a preflight, never application/json.
 * An empty body needs no type. Multipart bodies are left to multer, whose per-part limits add up
 * to the same bound. Text must be Unicode: bytes that are not UTF-8 and unpaired surrogate escapes
 * (`"\ud800"`) are refused, naming their fields, instead of being stored as U+FFFD.
 */
export function receiveBody(limitBytes: number, options: { multipart: boolean }) {
  const json = express.json({
    limit: limitBytes,
    strict: false,
    // A JSON operation reads every body, to refuse what is not JSON; a multipart one leaves multipart to multer.
    type: (req) => !options.multipart || !isMultipart(req),
    // Before parsing: a text/plain body is refused for its type, whether or not it is JSON.
    verify: (req, _res, raw, encoding) => {
      if (!options.multipart && raw.length > 0 && !(req as Request).is(JSON_TYPES)) throw unsupportedMediaType();
      // The parser would decode bytes that are not UTF-8 as U+FFFD, and the route store that: refused instead.
      if (encoding === 'utf-8') {
        const notUtf8 = invalidUtf8Errors(raw);
        if (notUtf8.length > 0) throw DomainError.invalidInput(notUtf8, 'The request body is not valid UTF-8');
      }
    },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const declared = Number(req.get('content-length') ?? 0);
    if (declared > limitBytes) throw payloadTooLarge(limitBytes);
    json(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (nestsDeeperThan(req.body, MAX_JSON_DEPTH)) return next(DomainError.invalidInput([tooDeepError()], 'The request body is nested too deeply'));
      const unpaired = unpairedSurrogateErrors(req.body);
      if (unpaired.length > 0) return next(DomainError.invalidInput(unpaired, 'The request body has text that is not Unicode'));
      next();
    });
  };
}
