import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { createHash } from 'node:crypto';
import { BeneficialOwner, Customer, Document, DocumentFile, Verification } from '../entities';
import type { DocumentMimeType, DocumentSide, DocumentType } from '../domain/documents';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import type { SortOrder } from '../../../domain/pagination';
import { listPage } from '../../../services/listing';
import { documentView } from './verification-views';

export interface DocumentFields {
  documentType: DocumentType;
  side?: DocumentSide;
  country: string;
  documentNumber?: string;
  issuingAuthority?: string;
}

export interface StoredFile {
  bytes: Buffer;
  mimeType: DocumentMimeType;
  fileName: string;
}

/**
 * The customer a document holder belongs to: the customer itself, or the business of a
 * beneficial owner. Null for anything that is not an active holder of the platform.
 */
export async function holderCustomerId(em: EntityManager, platformId: string, holder: string): Promise<string | null> {
  if (holder.startsWith('Customer:')) {
    const customer = await em.findOne(Customer, { id: holder, platformId, isDeleted: false });
    return customer?.id ?? null;
  }
  if (holder.startsWith('BeneficialOwner:')) {
    const owner = await em.findOne(BeneficialOwner, { id: holder, platformId });
    if (!owner) return null;
    // An owner's documents belong to its business, which must be active like any holder.
    const business = await em.findOne(Customer, { id: owner.customerId, platformId, isDeleted: false });
    return business?.id ?? null;
  }
  return null;
}

const alreadyExists = (type: string, side?: string | null) =>
  new DomainError(
    'DOCUMENT_ALREADY_EXISTS',
    `The holder already has a ${type}${side ? ` (${side})` : ''} document; replace it with PUT /documents/{documentId}`,
  );

async function assertSlotFree(em: EntityManager, holder: string, type: DocumentType, side: DocumentSide | null, exceptId?: string): Promise<void> {
  const clash = await em.findOne(Document, { documentHolder: holder, documentType: type, side, ...(exceptId ? { id: { $ne: exceptId } } : {}) });
  if (clash) throw alreadyExists(type, side);
}

function fileColumns(file: StoredFile) {
  return { fileName: file.fileName, mimeType: file.mimeType, sizeBytes: file.bytes.length, sha256: createHash('sha256').update(file.bytes).digest('hex') };
}

/** Stores a new document and its bytes in one transaction; one per holder, type and side. */
export async function uploadDocument(em: EntityManager, platformId: string, holder: string, fields: DocumentFields, file: StoredFile): Promise<Document> {
  try {
    return await em.transactional(async (tx) => {
      const customerId = await holderCustomerId(tx, platformId, holder);
      if (!customerId) throw DomainError.notFound('Document holder');
      await assertSlotFree(tx, holder, fields.documentType, fields.side ?? null);
      const now = new Date();
      const doc = tx.create(Document, {
        id: newId('Document'),
        platformId,
        documentHolder: holder,
        customerId,
        documentType: fields.documentType,
        side: fields.side ?? null,
        country: fields.country,
        documentNumber: fields.documentNumber ?? null,
        issuingAuthority: fields.issuingAuthority ?? null,
        ...fileColumns(file),
        submittedAt: null,
        submittedInVerificationId: null,
        createdAt: now,
        updatedAt: now,
      });
      tx.create(DocumentFile, { documentId: doc.id, content: file.bytes });
      await tx.flush();
      return doc;
    });
  } catch (err) {
    // Two simultaneous uploads for one slot: the unique index lets one through.
    if (err instanceof UniqueConstraintViolationException) throw alreadyExists(fields.documentType, fields.side);
    throw err;
  }
}

const UNDER_REVIEW = new Set(['IN_PROGRESS', 'PENDING_MANUAL_REVIEW']);

/**
 * Replaces a document's file and metadata (its holder stays). Refused while the customer's
 * verification is under review; a new type/side must not clash with another document.
 */
export async function replaceDocument(em: EntityManager, platformId: string, documentId: string, fields: DocumentFields, file: StoredFile): Promise<Document> {
  try {
    return await em.transactional(async (tx) => {
      const doc = await tx.findOne(Document, { id: documentId, platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!doc) throw DomainError.notFound('Document');
      const verification = await tx.findOne(Verification, { customerId: doc.customerId });
      if (verification && UNDER_REVIEW.has(verification.verificationStatus)) {
        throw new DomainError(
          'CONFLICT',
          `The customer's verification is ${verification.verificationStatus}; documents cannot be replaced while it is under review`,
        );
      }
      await assertSlotFree(tx, doc.documentHolder, fields.documentType, fields.side ?? null, doc.id);
      Object.assign(doc, {
        documentType: fields.documentType,
        side: fields.side ?? null,
        country: fields.country,
        documentNumber: fields.documentNumber ?? null,
        issuingAuthority: fields.issuingAuthority ?? null,
        ...fileColumns(file),
        updatedAt: new Date(),
      });
      const stored = await tx.findOneOrFail(DocumentFile, { documentId: doc.id });
      stored.content = file.bytes;
      await tx.flush();
      return doc;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw alreadyExists(fields.documentType, fields.side);
    throw err;
  }
}

/** Deletes a document that no verification submission has used yet. */
export async function deleteDocument(em: EntityManager, platformId: string, documentId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const doc = await tx.findOne(Document, { id: documentId, platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!doc) throw DomainError.notFound('Document');
    if (doc.submittedAt) {
      throw new DomainError('CONFLICT', 'The document was submitted in a verification and can no longer be deleted; replace it with PUT if it must change');
    }
    await tx.nativeDelete(DocumentFile, { documentId: doc.id });
    tx.remove(doc);
    await tx.flush();
  });
}

/** One of the platform's documents (its metadata), or 404. */
export async function findDocument(em: EntityManager, platformId: string, documentId: string): Promise<Document> {
  const doc = await em.findOne(Document, { id: documentId, platformId });
  if (!doc) throw DomainError.notFound('Document');
  return doc;
}

/** GET /documents: the platform's documents (one holder's when named), a page at a time. */
export async function listDocuments(
  em: EntityManager,
  platformId: string,
  query: { limit: number; cursor?: string; sortOrder?: SortOrder; documentHolder?: string },
) {
  const where = { platformId, ...(query.documentHolder ? { documentHolder: query.documentHolder } : {}) };
  return listPage(em, Document, where, query, (rows) => rows.map(documentView));
}
