import type { FieldError } from '../../../domain/errors';

// Bulk customer import (POST /customers/bulk/csv): the CSV format, the limits of an upload and
// how one row becomes the body of POST /customers. Pure: no I/O, so the API, the activities and
// the unit tests share it. The rules a customer must satisfy are not repeated here: a row is
// judged by POST /customers' own schema and checks (services/bulk-import.ts).

/** The largest CSV accepted, in bytes (5 MiB: ~10,000 rows of ~500 bytes each). */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
/** The most data rows (lines after the header) one upload may hold. */
export const MAX_CSV_ROWS = 10_000;

/** Columns every file must have (the reference's "required columns for all customers"). */
export const REQUIRED_COLUMNS = ['umaAddress', 'platformCustomerId', 'customerType'] as const;

const ADDRESS_COLUMNS = ['addressLine1', 'city', 'state', 'postalCode', 'country'] as const;

/** Cells a row of each customer type must fill (the reference's per-type required columns). */
export const REQUIRED_CELLS = {
  INDIVIDUAL: ['fullName', 'birthDate', ...ADDRESS_COLUMNS],
  BUSINESS: ['businessLegalName', ...ADDRESS_COLUMNS],
} as const;

/**
 * Every column a file may have. `businessIncorporatedOn` is this service's addition: POST
 * /customers requires `businessInfo.incorporatedOn`, which the reference's format has no column
 * for (docs/onboarding.md: bulk import).
 */
export const KNOWN_COLUMNS = [
  ...REQUIRED_COLUMNS,
  'fullName',
  'birthDate',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
  'platformAccountId',
  'description',
  'email',
  'businessLegalName',
  'businessRegistrationNumber',
  'businessTaxId',
  'businessIncorporatedOn',
] as const;

/** Limits of the columns that have no customer field to carry a rule (spec §8). */
const MAX_PLATFORM_ACCOUNT_ID = 255;
const MAX_DESCRIPTION = 500;

export type CsvRow = Record<string, string>;

export interface ParsedCsv {
  header: string[];
  /** Data rows as cells, in file order; row numbers count data rows from 1 (the header is row 0). */
  rows: string[][];
}

/**
 * RFC 4180 parsing: comma-separated, `"` quotes a cell (`""` is a quote inside one), quoted cells
 * may hold commas and line breaks; CRLF or LF ends a record; a UTF-8 byte-order mark is dropped.
 * Blank lines are skipped. Returns the problem instead when quoting is broken.
 */
export function parseCsv(text: string): ParsedCsv | { problem: string } {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(cell);
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
    cell = '';
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else {
          quoted = false;
          const next = text[i + 1];
          if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r')
            return { problem: `line ${line}: a quoted cell must end at a comma or the end of the line` };
        }
      } else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"') {
      if (cell !== '') return { problem: `line ${line}: a quote may only open a cell` };
      quoted = true;
    } else if (c === ',') {
      record.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
    } else {
      cell += c;
    }
  }
  if (quoted) return { problem: `line ${line}: a quoted cell is never closed` };
  if (cell !== '' || record.length > 0) endRecord();
  const [header = [], ...rows] = records;
  return { header: header.map((h) => h.trim()), rows };
}

/**
 * Everything wrong with an upload as a whole, each problem a field error on `file`: not UTF-8
 * text, broken quoting, a header without a required column or with unknown or repeated ones,
 * no data rows, too many rows. Problems of single rows are not judged here: they are reported
 * per row by the import.
 */
export function csvFileProblems(bytes: Buffer): { problems: FieldError[]; parsed?: ParsedCsv } {
  const problem = (constraint: string, message: string): FieldError => ({ field: 'file', constraint, message });
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD') || text.includes('\u0000')) return { problems: [problem('format', 'the file must be UTF-8 text (CSV)')] };
  const parsed = parseCsv(text);
  if ('problem' in parsed) return { problems: [problem('format', `not valid CSV: ${parsed.problem}`)] };
  const problems: FieldError[] = [];
  const { header, rows } = parsed;
  if (header.length === 0) return { problems: [problem('format', 'the file is empty: the first line must name the columns')] };
  for (const column of REQUIRED_COLUMNS) {
    if (!header.includes(column)) problems.push(problem('requiredColumn', `the header has no ${column} column`));
  }
  const known = new Set<string>(KNOWN_COLUMNS);
  header.forEach((column, i) => {
    if (!known.has(column))
      problems.push(
        problem(
          'unknownColumn',
          `column ${i + 1} (${column === '' ? 'unnamed' : column}) is not a column of the format; the columns are ${KNOWN_COLUMNS.join(', ')}`,
        ),
      );
    else if (header.indexOf(column) !== i) problems.push(problem('uniqueColumn', `the column ${column} appears more than once`));
  });
  if (rows.length === 0) problems.push(problem('minItems', 'the file has no customer rows after the header'));
  if (rows.length > MAX_CSV_ROWS) problems.push(problem('maxItems', `the file has ${rows.length} rows; at most ${MAX_CSV_ROWS} are accepted in one upload`));
  return problems.length > 0 ? { problems } : { problems, parsed };
}

/** One data row by column name; cells are trimmed. The cell count is checked by rowProblems. */
export function rowByColumn(header: string[], cells: string[]): CsvRow {
  const row: CsvRow = {};
  header.forEach((column, i) => {
    row[column] = (cells[i] ?? '').trim();
  });
  return row;
}

/**
 * What a row must hold beyond what POST /customers checks: as many cells as the header, a known
 * customerType, the cells its type requires (the reference's per-type columns), and the limits
 * of the columns no customer field carries. Field names are the CSV's columns.
 */
export function rowProblems(header: string[], cells: string[]): FieldError[] {
  if (cells.length !== header.length) {
    return [{ field: 'row', constraint: 'columnCount', message: `the row has ${cells.length} cells; the header names ${header.length} columns` }];
  }
  const row = rowByColumn(header, cells);
  const problems: FieldError[] = [];
  const type = row.customerType;
  if (type === 'INDIVIDUAL' || type === 'BUSINESS') {
    for (const column of REQUIRED_CELLS[type]) {
      if (!row[column]) problems.push({ field: column, constraint: 'required', message: `${column} is required for ${type} customers` });
    }
  }
  if (row.platformAccountId && row.platformAccountId.length > MAX_PLATFORM_ACCOUNT_ID) {
    problems.push({
      field: 'platformAccountId',
      constraint: 'maxLength',
      message: `must be at most ${MAX_PLATFORM_ACCOUNT_ID} characters`,
      hint: { maxLength: MAX_PLATFORM_ACCOUNT_ID },
    });
  }
  if (row.description && row.description.length > MAX_DESCRIPTION) {
    problems.push({
      field: 'description',
      constraint: 'maxLength',
      message: `must be at most ${MAX_DESCRIPTION} characters`,
      hint: { maxLength: MAX_DESCRIPTION },
    });
  }
  return problems;
}

/**
 * The body of POST /customers a row stands for; empty cells are left out. A UMA address given
 * without its leading `$` (as in the reference's example file) gets one. `customerType` is
 * passed as written, so that the create schema reports a wrong one.
 */
export function rowToCustomerRequest(row: CsvRow): Record<string, unknown> {
  const cell = (column: string) => (row[column] ? row[column] : undefined);
  const compact = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  const uma = cell('umaAddress');
  const address = compact({
    line1: cell('addressLine1'),
    line2: cell('addressLine2'),
    city: cell('city'),
    state: cell('state'),
    postalCode: cell('postalCode'),
    country: cell('country'),
  });
  const common = compact({
    customerType: cell('customerType'),
    platformCustomerId: cell('platformCustomerId'),
    umaAddress: uma && !uma.startsWith('$') ? `$${uma}` : uma,
    ...(Object.keys(address).length > 0 ? { address } : {}),
  });
  if (row.customerType === 'BUSINESS') {
    return {
      ...common,
      businessInfo: compact({
        legalName: cell('businessLegalName'),
        country: cell('country'),
        registrationNumber: cell('businessRegistrationNumber'),
        taxId: cell('businessTaxId'),
        incorporatedOn: cell('businessIncorporatedOn'),
      }),
    };
  }
  return { ...common, ...compact({ fullName: cell('fullName'), birthDate: cell('birthDate'), email: cell('email') }) };
}

/** The CSV column a field of the POST /customers body came from, for per-row errors. */
const COLUMN_OF_FIELD: Record<string, string> = {
  'address.line1': 'addressLine1',
  'address.line2': 'addressLine2',
  'address.city': 'city',
  'address.state': 'state',
  'address.postalCode': 'postalCode',
  'address.country': 'country',
  'businessInfo.legalName': 'businessLegalName',
  'businessInfo.country': 'country',
  'businessInfo.registrationNumber': 'businessRegistrationNumber',
  'businessInfo.taxId': 'businessTaxId',
  'businessInfo.incorporatedOn': 'businessIncorporatedOn',
};

export function columnOfField(field: string): string {
  return COLUMN_OF_FIELD[field] ?? field;
}

/** A job's outcome once every row is processed: FAILED when no row could be created. */
export function finalJobStatus(progress: { total: number; successful: number }): 'COMPLETED' | 'FAILED' {
  return progress.total > 0 && progress.successful === 0 ? 'FAILED' : 'COMPLETED';
}
