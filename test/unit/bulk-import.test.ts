import { columnOfField, csvFileProblems, finalJobStatus, parseCsv, rowProblems, rowToCustomerRequest } from '../../src/contexts/customers/domain/bulk-import';

describe('parseCsv (RFC 4180)', () => {
  test('quoted cells hold commas, quotes and line breaks; CRLF and LF both end records; a BOM and blank lines are dropped', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\n\n1,,3\n';
    expect(parseCsv(text)).toEqual({
      header: ['a', 'b', 'c'],
      rows: [
        ['x, y', 'say "hi"', 'two\nlines'],
        ['1', '', '3'],
      ],
    });
  });

  test('the last record needs no line break; header names are trimmed', () => {
    expect(parseCsv(' a , b\n1,2')).toEqual({ header: ['a', 'b'], rows: [['1', '2']] });
  });

  test.each([
    ['a quote never closed', 'a,b\n"open,2\n', /never closed/],
    ['text after a closing quote', 'a,b\n"x"y,2\n', /must end at a comma/],
    ['a quote inside an unquoted cell', 'a,b\nx"y,2\n', /may only open a cell/],
  ])('%s is a problem with its line', (_name, text, message) => {
    const parsed = parseCsv(text);
    expect('problem' in parsed && parsed.problem).toMatch(message);
  });
});

describe('csvFileProblems', () => {
  test('every header problem at once', () => {
    const { problems, parsed } = csvFileProblems(Buffer.from('customerType,nickname,customerType,\nINDIVIDUAL,x,y,z\n'));
    expect(parsed).toBeUndefined();
    expect(problems.map((p) => [p.field, p.constraint])).toEqual([
      ['file', 'requiredColumn'],
      ['file', 'requiredColumn'],
      ['file', 'unknownColumn'],
      ['file', 'uniqueColumn'],
      ['file', 'unknownColumn'],
    ]);
  });

  test('a good file is parsed', () => {
    const { problems, parsed } = csvFileProblems(Buffer.from('umaAddress,platformCustomerId,customerType\n$a@b.example.com,a,INDIVIDUAL\n'));
    expect(problems).toEqual([]);
    expect(parsed?.rows).toEqual([['$a@b.example.com', 'a', 'INDIVIDUAL']]);
  });
});

describe('rows', () => {
  const header = [
    'umaAddress',
    'platformCustomerId',
    'customerType',
    'fullName',
    'addressLine1',
    'city',
    'country',
    'businessLegalName',
    'businessTaxId',
    'description',
  ];

  test('a row with another number of cells than the header is reported as such, alone', () => {
    expect(rowProblems(header, ['a', 'b'])).toEqual([{ field: 'row', constraint: 'columnCount', message: expect.stringContaining('2 cells') }]);
  });

  test("each type's required cells, and the limits of columns no customer field carries", () => {
    const problems = rowProblems(header, ['$a@b.example.com', 'a', 'BUSINESS', '', '1 Main', '', 'US', '', '', 'd'.repeat(501)]);
    expect(problems.map((p) => [p.field, p.constraint])).toEqual([
      ['businessLegalName', 'required'],
      ['city', 'required'],
      ['state', 'required'],
      ['postalCode', 'required'],
      ['description', 'maxLength'],
    ]);
  });

  test('a business row becomes the POST /customers body: address, businessInfo with the country; empty cells left out', () => {
    const row = {
      umaAddress: 'acme@uma.example.com',
      platformCustomerId: 'biz',
      customerType: 'BUSINESS',
      addressLine1: '1 Main',
      addressLine2: '',
      city: 'Austin',
      country: 'US',
      businessLegalName: 'Acme',
      businessTaxId: '12-3456789',
      businessRegistrationNumber: '',
    };
    expect(rowToCustomerRequest(row)).toEqual({
      customerType: 'BUSINESS',
      platformCustomerId: 'biz',
      umaAddress: '$acme@uma.example.com',
      address: { line1: '1 Main', city: 'Austin', country: 'US' },
      businessInfo: { legalName: 'Acme', country: 'US', taxId: '12-3456789' },
    });
    expect(columnOfField('businessInfo.taxId')).toBe('businessTaxId');
    expect(columnOfField('address.line1')).toBe('addressLine1');
    expect(columnOfField('email')).toBe('email');
  });

  test('a job fails only when no row was created', () => {
    expect(finalJobStatus({ total: 3, successful: 0 })).toBe('FAILED');
    expect(finalJobStatus({ total: 3, successful: 1 })).toBe('COMPLETED');
  });
});
