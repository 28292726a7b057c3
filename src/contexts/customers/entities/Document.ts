import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { DocumentSide, DocumentType } from '../domain/documents';

/** Metadata of an uploaded verification document; its bytes live in `document_files`. */
@Entity({ tableName: 'documents' })
export class Document {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  /** A Customer or BeneficialOwner id of the same platform. */
  @Property({ type: 'string' }) documentHolder!: string;
  /** The customer whose verification the document belongs to (the business, for an owner's document). */
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) documentType!: DocumentType;
  @Property({ type: 'string', nullable: true }) side?: DocumentSide | null;
  @Property({ type: 'string' }) country!: string;
  @Property({ type: 'string', nullable: true }) documentNumber?: string | null;
  @Property({ type: 'string', nullable: true }) issuingAuthority?: string | null;
  @Property({ type: 'string' }) fileName!: string;
  @Property({ type: 'string' }) mimeType!: string;
  @Property({ type: 'integer' }) sizeBytes!: number;
  @Property({ type: 'string' }) sha256!: string;
  /** Set once a verification submission included the document; it can no longer be deleted. */
  @Property({ type: 'datetime', nullable: true }) submittedAt?: Date | null;
  @Property({ type: 'string', nullable: true }) submittedInVerificationId?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

/** The stored bytes of a document, kept apart so that lists and lookups never load them. */
@Entity({ tableName: 'document_files' })
export class DocumentFile {
  @PrimaryKey({ type: 'string' }) documentId!: string;
  @Property({ type: 'blob' }) content!: Buffer;
}
