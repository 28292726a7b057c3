import type { BeneficialOwner, Document, Verification } from '../entities';

/** Public representations of owners, documents and verifications (reference §2.4–2.6). */

export function beneficialOwnerView(o: BeneficialOwner) {
  // The identifier is write-only: only its sealed form is stored, and it is never rendered.
  return {
    id: o.id,
    customerId: o.customerId,
    roles: o.roles,
    ownershipPercentage: o.ownershipPercentage,
    personalInfo: o.personalInfo,
    kycStatus: o.kycStatus,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

export function documentView(d: Document) {
  return {
    id: d.id,
    documentHolder: d.documentHolder,
    documentType: d.documentType,
    ...(d.side ? { side: d.side } : {}),
    country: d.country,
    ...(d.documentNumber ? { documentNumber: d.documentNumber } : {}),
    ...(d.issuingAuthority ? { issuingAuthority: d.issuingAuthority } : {}),
    fileName: d.fileName,
    mimeType: d.mimeType,
    fileSize: d.sizeBytes,
    sha256: d.sha256,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export type VerificationView = ReturnType<typeof verificationView>;

export function verificationView(v: Verification) {
  return {
    id: v.id,
    customerId: v.customerId,
    verificationStatus: v.verificationStatus,
    errors: v.errors,
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
  };
}
