/** Verification documents: types, the categories a verification asks for, and accepted files. */

export const DOCUMENT_TYPES = [
  'PASSPORT',
  'DRIVERS_LICENSE',
  'NATIONAL_ID',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE',
  'INFORMATION_STATEMENT',
  'INCUMBENCY_CERTIFICATE',
  'BUSINESS_LICENSE',
  'SHAREHOLDER_REGISTER',
  'POWER_OF_ATTORNEY',
  'UTILITY_BILL',
  'ELECTRICITY_BILL',
  'RENT_OR_LEASE_AGREEMENT',
  'DIRECTOR_REGISTRY',
  'TRUST_AGREEMENT',
  'STATE_COMPANY_REGISTRY',
  'PARTNERSHIP_CONTROL_AGREEMENT',
  'PARTNERSHIP_AGREEMENT',
  'SELFIE',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_SIDES = ['FRONT', 'BACK'] as const;
export type DocumentSide = (typeof DOCUMENT_SIDES)[number];

/** Document categories a verification can ask for, with the types that satisfy each (reference §3.7). */
export const IDENTITY_DOCUMENTS: readonly DocumentType[] = ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'];
/** The generic PROOF_OF_ADDRESS type is accepted next to the specific ones the reference lists. */
export const PROOF_OF_ADDRESS_DOCUMENTS: readonly DocumentType[] = [
  'PROOF_OF_ADDRESS',
  'UTILITY_BILL',
  'RENT_OR_LEASE_AGREEMENT',
  'ELECTRICITY_BILL',
  'BANK_STATEMENT',
  'TAX_RETURN',
];
export const LEGAL_PRESENCE_DOCUMENTS: readonly DocumentType[] = [
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
];
export const OWNERSHIP_STRUCTURE_DOCUMENTS: readonly DocumentType[] = ['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT'];
export const CONTROL_STRUCTURE_DOCUMENTS: readonly DocumentType[] = [
  'DIRECTOR_REGISTRY',
  'TRUST_AGREEMENT',
  'STATE_COMPANY_REGISTRY',
  'PARTNERSHIP_CONTROL_AGREEMENT',
];

/** Uploads are at most 10 MB (reference §3.7). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export type DocumentMimeType = 'application/pdf' | 'image/jpeg' | 'image/png';

/** Declared types that say nothing about the content: the bytes decide alone. */
const GENERIC_TYPES = new Set(['application/octet-stream']);
/** Other names clients use for the accepted types. */
const ALIASES: Record<string, DocumentMimeType> = {
  'application/pdf': 'application/pdf',
  'application/x-pdf': 'application/pdf',
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/x-png': 'image/png',
};

/**
 * The file's real type from its first bytes (PDF `%PDF-`, JPEG `FF D8 FF`, PNG signature), or
 * null when it is none of the accepted types. A renamed or mislabelled file is caught here.
 */
export function sniffDocumentType(bytes: Uint8Array): DocumentMimeType | null {
  const starts = (sig: number[]) => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  return null;
}

export type FileProblem = { constraint: 'required' | 'maxSize' | 'fileType'; message: string };

/**
 * Checks an uploaded file: present and not empty, at most 10 MB, and a PDF, JPEG or PNG by its
 * magic bytes, which decide the type. The declared Content-Type is only checked against them: no
 * type, an empty one or generic binary is fine; an accepted type (or an alias of it) must be the
 * one the bytes show; any other declared type contradicts the bytes and is refused. Returns the
 * stored mime type (from the bytes) or the problem.
 */
export function checkDocumentFile(
  file: { bytes: Uint8Array; declaredType?: string | null } | null | undefined,
): { ok: true; mimeType: DocumentMimeType } | { ok: false; problem: FileProblem } {
  if (!file || file.bytes.length === 0) return { ok: false, problem: { constraint: 'required', message: 'a non-empty file is required' } };
  if (file.bytes.length > MAX_DOCUMENT_BYTES)
    return { ok: false, problem: { constraint: 'maxSize', message: `the file must be at most ${MAX_DOCUMENT_BYTES} bytes (10 MB)` } };
  const actual = sniffDocumentType(file.bytes);
  if (actual === null)
    return { ok: false, problem: { constraint: 'fileType', message: 'the file must be a PDF, JPEG or PNG document (judged by its content)' } };
  const declared = (file.declaredType ?? '').toLowerCase().split(';')[0]!.trim();
  if (declared === '' || GENERIC_TYPES.has(declared) || ALIASES[declared] === actual) return { ok: true, mimeType: actual };
  return { ok: false, problem: { constraint: 'fileType', message: `the file is declared as ${declared} but its content is ${actual}` } };
}

/** A file name safe to store and return: no path, no control characters, at most 255 characters. */
export function cleanFileName(name: string | undefined | null, mimeType: DocumentMimeType): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
  if (cleaned) return cleaned;
  return `document.${mimeType === 'application/pdf' ? 'pdf' : mimeType === 'image/png' ? 'png' : 'jpg'}`;
}
