import { checkDocumentFile, cleanFileName, MAX_DOCUMENT_BYTES } from '../domain/documents';
import { DomainError, type FieldError } from '../../../domain/errors';
import { deleteDocument, findDocument, listDocuments, replaceDocument, uploadDocument, type StoredFile } from '../services/documents';
import { documentView } from '../services/verification-views';
import { announceReadiness } from './verification-readiness';
import type { UploadedFile } from '../../../api/multipart';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import {
  DocumentListQuerySchema,
  DocumentListSchema,
  DocumentReplaceFieldsSchema,
  DocumentReplaceRequestSchema,
  DocumentSchema,
  DocumentUploadFieldsSchema,
  DocumentUploadRequestSchema,
} from './verification-schemas';

const tags = ['Documents'];

/** The upload's problems as field errors on `file`: missing, too large, not a real PDF/JPEG/PNG. */
function checkFile(file: UploadedFile | undefined): FieldError[] {
  const result = checkDocumentFile(file ? { bytes: file.bytes, declaredType: file.declaredType } : null);
  return result.ok ? [] : [{ field: 'file', ...result.problem }];
}

/** The checked upload, ready to store. */
function storedFile(file: UploadedFile | undefined): StoredFile {
  const result = checkDocumentFile(file ? { bytes: file.bytes, declaredType: file.declaredType } : null);
  if (!file || !result.ok) throw DomainError.invalidInput(checkFile(file));
  return { bytes: file.bytes, mimeType: result.mimeType, fileName: cleanFileName(file.originalName, result.mimeType) };
}

const multipartErrors = {
  description: 'Invalid fields or file: missing file, not a PDF/JPEG/PNG by content, larger than 10 MB, not multipart',
  schema: errorResponses[400].schema,
};

export const documentRoutes = [
  defineRoute({
    method: 'post',
    path: '/documents',
    operationId: 'uploadDocument',
    summary: 'Upload a document',
    description: 'Upload a verification document (multipart/form-data) for a customer or a beneficial owner',
    tags,
    body: DocumentUploadFieldsSchema,
    multipart: { fileField: 'file', maxFileBytes: MAX_DOCUMENT_BYTES, schema: DocumentUploadRequestSchema, checkFile },
    responses: {
      201: { description: 'Stored', schema: DocumentSchema },
      400: multipartErrors,
      401: errorResponses[401],
      404: { description: 'Document holder not found', schema: errorResponses[404].schema },
      409: { description: 'DOCUMENT_ALREADY_EXISTS: the holder has this type and side already; replace it with PUT', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, body, file, deps }) => {
      const { documentHolder, ...fields } = body;
      const doc = await uploadDocument(em, caller.platformId, documentHolder, fields, storedFile(file));
      await announceReadiness(em, deps, caller, doc.customerId);
      return { status: 201, body: documentView(doc) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/documents',
    operationId: 'listDocuments',
    summary: 'List documents',
    description: 'List documents, newest first, optionally of one holder',
    tags,
    query: DocumentListQuerySchema,
    responses: { 200: { description: 'A page of documents', schema: DocumentListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listDocuments(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/documents/:documentId',
    operationId: 'getDocument',
    summary: 'Get a document by ID',
    description: "Fetch a document's metadata",
    tags,
    params: IdParam('documentId'),
    responses: { 200: { description: 'The document', schema: DocumentSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: documentView(await findDocument(em, caller.platformId, params.documentId)) }),
  }),
  defineRoute({
    method: 'put',
    path: '/documents/:documentId',
    operationId: 'replaceDocument',
    summary: 'Replace a document',
    description: "Replace a document's file and metadata (multipart/form-data)",
    tags,
    params: IdParam('documentId'),
    body: DocumentReplaceFieldsSchema,
    multipart: { fileField: 'file', maxFileBytes: MAX_DOCUMENT_BYTES, schema: DocumentReplaceRequestSchema, checkFile },
    responses: {
      200: { description: 'Replaced', schema: DocumentSchema },
      400: multipartErrors,
      401: errorResponses[401],
      404: errorResponses[404],
      409: {
        description: "DOCUMENT_ALREADY_EXISTS (the new type and side clash), or CONFLICT while the customer's verification is under review",
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, params, body, file, deps }) => {
      const doc = await replaceDocument(em, caller.platformId, params.documentId, body, storedFile(file));
      await announceReadiness(em, deps, caller, doc.customerId);
      return { status: 200, body: documentView(doc) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/documents/:documentId',
    operationId: 'deleteDocument',
    summary: 'Delete a document',
    description: 'Delete a document not yet submitted in a verification',
    tags,
    params: IdParam('documentId'),
    responses: {
      204: { description: 'Deleted' },
      401: errorResponses[401],
      404: errorResponses[404],
      409: { description: 'CONFLICT: the document was submitted in a verification', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, params }) => {
      await deleteDocument(em, caller.platformId, params.documentId);
      return { status: 204 };
    },
  }),
];
