import {
  jurisdictionOf,
  ownerNeedsVerification,
  packetErrors,
  type PacketCustomer,
  type PacketDocument,
  type PacketOwner,
  type VerificationPacket,
} from '../../src/contexts/customers/domain/verification-requirements';

const CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000001';
const OWNER = 'BeneficialOwner:00000000-0000-4000-8000-000000000002';
const OWNER2 = 'BeneficialOwner:00000000-0000-4000-8000-000000000003';
const US_ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
const DE_ADDRESS = { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', country: 'DE' };
const BR_ADDRESS = { line1: 'Rua 1', city: 'São Paulo', postalCode: '01000-000', country: 'BR' };

let n = 0;
const doc = (holder: string, documentType: PacketDocument['documentType']): PacketDocument => ({ id: `Document:${++n}`, documentHolder: holder, documentType });

function individual(over: Partial<PacketCustomer> = {}): PacketCustomer {
  return {
    id: CUSTOMER,
    customerType: 'INDIVIDUAL',
    regionCode: 'US',
    fullName: 'Ada Lovelace',
    birthDate: '1990-01-01',
    nationality: 'US',
    address: US_ADDRESS,
    hasIdentifier: true,
    profile: { idType: 'SSN', purposeOfAccount: 'P2P_TRANSFERS', sourceOfFundsCategories: ['SALARY'], expectedMonthlyTransactionVolume: 'VOLUME_UNDER_10K' },
    ...over,
  };
}

function owner(over: Partial<PacketOwner> = {}, info: Partial<PacketOwner['personalInfo']> = {}): PacketOwner {
  return {
    id: OWNER,
    roles: ['UBO'],
    ownershipPercentage: 60,
    personalInfo: { firstName: 'Jane', lastName: 'Smith', birthDate: '1978-06-15', nationality: 'US', address: US_ADDRESS, idType: 'SSN', ...info },
    hasIdentifier: true,
    ...over,
  };
}

function business(over: Partial<PacketCustomer> = {}, info: Record<string, unknown> = {}): PacketCustomer {
  return {
    id: CUSTOMER,
    customerType: 'BUSINESS',
    regionCode: 'US',
    address: US_ADDRESS,
    hasIdentifier: false,
    profile: {
      businessInfo: { legalName: 'Acme Inc', country: 'US', incorporatedOn: '2015-01-01', taxId: '12-3456789', registrationNumber: 'REG-003', ...info },
    },
    ...over,
  };
}

const regulated = { isRegulatedFinancialInstitution: true };
const unregulated = { isRegulatedFinancialInstitution: false };

function packet(p: Partial<VerificationPacket> & Pick<VerificationPacket, 'customer'>): VerificationPacket {
  return { platform: regulated, owners: [], documents: [], ...p };
}

const fields = (errors: ReturnType<typeof packetErrors>) => errors.filter((e) => e.type === 'MISSING_FIELD').map((e) => e.field);
const types = (errors: ReturnType<typeof packetErrors>) => errors.map((e) => e.type);

describe('jurisdictionOf', () => {
  test.each([
    ['US', null, 'US'],
    ['DE', null, 'EEA'],
    ['NO', null, 'EEA'],
    ['BR', null, 'OTHER'],
    ['GB', null, 'OTHER'],
    [null, 'EU', 'EEA'],
    [null, 'US', 'US'],
    [null, null, 'US'],
    [null, 'LATAM', 'OTHER'],
    ['US', 'EU', 'US'],
  ])('country %s, region %s → %s', (country, region, expected) => {
    expect(jurisdictionOf(country, region)).toBe(expected);
  });
});

describe('individuals', () => {
  const complete = () => packet({ customer: individual(), documents: [doc(CUSTOMER, 'PASSPORT')] });

  test('a complete US packet on a regulated platform has no errors', () => {
    expect(packetErrors(complete())).toEqual([]);
  });

  test('fullName and birthDate are always required, each its own MISSING_FIELD on the customer', () => {
    const errors = packetErrors({ ...complete(), customer: individual({ fullName: null, birthDate: '  ' }) });
    expect(errors).toEqual([
      { resourceId: CUSTOMER, type: 'MISSING_FIELD', field: 'customer.fullName', reason: 'Full name is required' },
      { resourceId: CUSTOMER, type: 'MISSING_FIELD', field: 'customer.birthDate', reason: 'Date of birth is required' },
    ]);
  });

  test('every missing address part is itemised; a missing address lists all four', () => {
    expect(fields(packetErrors({ ...complete(), customer: individual({ address: { line1: '1 Main St', country: 'US' } }) }))).toEqual([
      'customer.address.city',
      'customer.address.postalCode',
    ]);
    expect(fields(packetErrors({ ...complete(), customer: individual({ address: null }) }))).toEqual([
      'customer.address.line1',
      'customer.address.city',
      'customer.address.postalCode',
      'customer.address.country',
    ]);
  });

  test('an identity document of the customer is required, with the accepted types', () => {
    const errors = packetErrors({ ...complete(), documents: [doc(CUSTOMER, 'UTILITY_BILL'), doc(OWNER, 'PASSPORT')] });
    expect(errors).toEqual([
      {
        resourceId: CUSTOMER,
        type: 'MISSING_IDENTITY_DOCUMENT',
        acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
        reason: expect.any(String),
      },
    ]);
  });

  test.each(['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] as const)('%s satisfies the identity requirement', (type) => {
    expect(packetErrors({ ...complete(), documents: [doc(CUSTOMER, type)] })).toEqual([]);
  });

  test('US: idType (SSN or ITIN) and the identifier are required', () => {
    const errors = packetErrors({ ...complete(), customer: individual({ hasIdentifier: false, profile: {} }) });
    expect(fields(errors)).toEqual(['customer.idType', 'customer.identifier']);
  });

  test('US: an idType other than SSN or ITIN is an INVALID_FIELD', () => {
    const errors = packetErrors({ ...complete(), customer: individual({ profile: { idType: 'NON_US_TAX_ID' } }) });
    expect(errors).toEqual([{ resourceId: CUSTOMER, type: 'INVALID_FIELD', field: 'customer.idType', reason: expect.stringContaining('SSN') }]);
    expect(packetErrors({ ...complete(), customer: individual({ profile: { idType: 'ITIN' } }) })).toEqual([]);
  });

  test('US: nationality is not required', () => {
    expect(packetErrors({ ...complete(), customer: individual({ nationality: null }) })).toEqual([]);
  });

  test('the address country decides the jurisdiction before nationality and region', () => {
    // A US national living in Germany is verified as an EEA resident.
    const errors = packetErrors(
      packet({ customer: individual({ address: DE_ADDRESS, nationality: 'US', regionCode: 'US', profile: {} }), documents: [doc(CUSTOMER, 'PASSPORT')] }),
    );
    expect(types(errors)).toContain('MISSING_PROOF_OF_ADDRESS_DOCUMENT');
    expect(fields(errors)).not.toContain('customer.idType');
  });

  describe('EEA', () => {
    const eu = (over: Partial<PacketCustomer> = {}) =>
      individual({
        regionCode: 'EU',
        address: DE_ADDRESS,
        nationality: 'DE',
        email: 'a@example.com',
        phoneNumber: '+4915112345678',
        hasIdentifier: false,
        profile: {},
        ...over,
      });

    test('a complete EEA packet: nationality, email, phone, identity and proof of address; no tax id', () => {
      expect(packetErrors(packet({ customer: eu(), documents: [doc(CUSTOMER, 'NATIONAL_ID'), doc(CUSTOMER, 'UTILITY_BILL')] }))).toEqual([]);
    });

    test('nationality, email and phoneNumber are required', () => {
      const errors = packetErrors(
        packet({
          customer: eu({ nationality: null, email: null, phoneNumber: null }),
          documents: [doc(CUSTOMER, 'NATIONAL_ID'), doc(CUSTOMER, 'UTILITY_BILL')],
        }),
      );
      expect(fields(errors)).toEqual(['customer.nationality', 'customer.email', 'customer.phoneNumber']);
    });

    test('a proof-of-address document is required, with the accepted types', () => {
      const errors = packetErrors(packet({ customer: eu(), documents: [doc(CUSTOMER, 'NATIONAL_ID')] }));
      expect(errors).toEqual([
        {
          resourceId: CUSTOMER,
          type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
          acceptedDocumentTypes: ['PROOF_OF_ADDRESS', 'UTILITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'ELECTRICITY_BILL', 'BANK_STATEMENT', 'TAX_RETURN'],
          reason: 'Proof of address document is required',
        },
      ]);
    });

    test.each(['PROOF_OF_ADDRESS', 'UTILITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'ELECTRICITY_BILL', 'BANK_STATEMENT', 'TAX_RETURN'] as const)(
      '%s is a proof of address',
      (type) => {
        expect(packetErrors(packet({ customer: eu(), documents: [doc(CUSTOMER, 'NATIONAL_ID'), doc(CUSTOMER, type)] }))).toEqual([]);
      },
    );

    test('region EU without any country still means EEA', () => {
      const errors = packetErrors(packet({ customer: eu({ address: null, nationality: null }), documents: [doc(CUSTOMER, 'NATIONAL_ID')] }));
      expect(types(errors)).toContain('MISSING_PROOF_OF_ADDRESS_DOCUMENT');
    });
  });

  describe('elsewhere', () => {
    test('nationality, idType (any) and the identifier are required; no proof of address', () => {
      const base = individual({ address: BR_ADDRESS, nationality: 'BR', profile: { idType: 'NON_US_TAX_ID' } });
      expect(packetErrors(packet({ customer: base, documents: [doc(CUSTOMER, 'PASSPORT')] }))).toEqual([]);
      const errors = packetErrors(
        packet({ customer: { ...base, nationality: null, hasIdentifier: false, profile: {} }, documents: [doc(CUSTOMER, 'PASSPORT')] }),
      );
      expect(fields(errors)).toEqual(['customer.nationality', 'customer.idType', 'customer.identifier']);
    });
  });

  describe('unregulated platforms also need the due-diligence basics', () => {
    test('purposeOfAccount, sourceOfFundsCategories and expectedMonthlyTransactionVolume', () => {
      const errors = packetErrors({ ...complete(), platform: unregulated, customer: individual({ profile: { idType: 'SSN', sourceOfFundsCategories: [] } }) });
      expect(fields(errors)).toEqual(['customer.purposeOfAccount', 'customer.sourceOfFundsCategories', 'customer.expectedMonthlyTransactionVolume']);
    });

    test('the same customer on a regulated platform needs none of them', () => {
      expect(packetErrors({ ...complete(), customer: individual({ profile: { idType: 'SSN' } }) })).toEqual([]);
    });

    test('from a monthly volume of 100K, source of wealth and net worth too', () => {
      const profile = {
        idType: 'SSN',
        purposeOfAccount: 'P2P_TRANSFERS',
        sourceOfFundsCategories: ['SALARY'],
        expectedMonthlyTransactionVolume: 'VOLUME_100K_TO_1M',
      };
      expect(fields(packetErrors({ ...complete(), platform: unregulated, customer: individual({ profile }) }))).toEqual([
        'customer.sourceOfWealthCategories',
        'customer.netWorthRange',
      ]);
      const complete100k = { ...profile, sourceOfWealthCategories: ['SAVINGS'], netWorthRange: 'RANGE_500K_1M' };
      expect(packetErrors({ ...complete(), platform: unregulated, customer: individual({ profile: complete100k }) })).toEqual([]);
      expect(
        packetErrors({
          ...complete(),
          platform: unregulated,
          customer: individual({ profile: { ...profile, expectedMonthlyTransactionVolume: 'VOLUME_10K_TO_100K' } }),
        }),
      ).toEqual([]);
    });
  });
});

describe('businesses', () => {
  const ownerDocs = [doc(OWNER, 'PASSPORT')];
  const complete = (): VerificationPacket =>
    packet({ customer: business(), owners: [owner()], documents: [doc(CUSTOMER, 'CERTIFICATE_OF_INCORPORATION'), ...ownerDocs] });

  test('a complete US packet on a regulated platform has no errors', () => {
    expect(packetErrors(complete())).toEqual([]);
  });

  test('businessInfo legalName, country, incorporatedOn, taxId and registrationNumber are each required', () => {
    const errors = packetErrors({
      ...complete(),
      customer: business({}, { legalName: '', country: undefined, incorporatedOn: null, taxId: undefined, registrationNumber: undefined }),
    });
    expect(fields(errors)).toEqual([
      'customer.businessInfo.legalName',
      'customer.businessInfo.country',
      'customer.businessInfo.incorporatedOn',
      'customer.businessInfo.taxId',
      'customer.businessInfo.registrationNumber',
    ]);
    expect(errors.every((e) => e.resourceId === CUSTOMER)).toBe(true);
  });

  test('no businessInfo at all lists all five', () => {
    expect(fields(packetErrors({ ...complete(), customer: business({ profile: {} }) }))).toHaveLength(5);
  });

  test('the business address is required part by part', () => {
    const errors = packetErrors({ ...complete(), customer: business({ address: { country: 'US' } }) });
    expect(errors.filter((e) => e.field?.startsWith('customer.address'))).toEqual([
      { resourceId: CUSTOMER, type: 'MISSING_FIELD', field: 'customer.address.line1', reason: 'Business address line 1 is required' },
      { resourceId: CUSTOMER, type: 'MISSING_FIELD', field: 'customer.address.city', reason: 'Business address city is required' },
      { resourceId: CUSTOMER, type: 'MISSING_FIELD', field: 'customer.address.postalCode', reason: 'Business address postal code is required' },
    ]);
  });

  test('a legal-presence document is required, with the accepted types', () => {
    const errors = packetErrors({ ...complete(), documents: ownerDocs });
    expect(errors).toEqual([
      {
        resourceId: CUSTOMER,
        type: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
        acceptedDocumentTypes: ['CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'STATE_REGISTRY_EXCERPT'],
        reason: expect.any(String),
      },
    ]);
  });

  test('at least one beneficial owner is required', () => {
    const errors = packetErrors({ ...complete(), owners: [] });
    expect(errors).toEqual([{ resourceId: CUSTOMER, type: 'MISSING_BENEFICIAL_OWNER', reason: 'At least one beneficial owner is required' }]);
  });

  test('owners of 25 % or more need complete personal info, itemised on the owner', () => {
    const incomplete = owner({ hasIdentifier: false }, { birthDate: null, nationality: '', idType: null, address: { line1: 'x', country: 'US' } });
    const errors = packetErrors({ ...complete(), owners: [incomplete] });
    expect(errors).toEqual([
      { resourceId: OWNER, type: 'MISSING_FIELD', field: 'personalInfo.birthDate', reason: 'Date of birth is required for beneficial owners' },
      { resourceId: OWNER, type: 'MISSING_FIELD', field: 'personalInfo.nationality', reason: 'Nationality is required for beneficial owners' },
      { resourceId: OWNER, type: 'MISSING_FIELD', field: 'personalInfo.idType', reason: 'Identification type is required for beneficial owners' },
      { resourceId: OWNER, type: 'MISSING_FIELD', field: 'personalInfo.identifier', reason: 'Identification number is required for beneficial owners' },
      { resourceId: OWNER, type: 'MISSING_FIELD', field: 'personalInfo.address.city', reason: 'Beneficial owner address city is required' },
      { resourceId: OWNER, type: 'MISSING_FIELD', field: 'personalInfo.address.postalCode', reason: 'Beneficial owner address postal code is required' },
    ]);
  });

  test('owners of 25 % or more need an identity document of their own', () => {
    const errors = packetErrors({ ...complete(), documents: [doc(CUSTOMER, 'CERTIFICATE_OF_INCORPORATION'), doc(CUSTOMER, 'PASSPORT')] });
    expect(errors).toEqual([
      {
        resourceId: OWNER,
        type: 'MISSING_IDENTITY_DOCUMENT',
        acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
        reason: expect.any(String),
      },
    ]);
  });

  test('exactly 25 % counts; below 25 % does not, unless the owner is a control person', () => {
    expect(ownerNeedsVerification({ ownershipPercentage: 25, roles: ['UBO'] })).toBe(true);
    expect(ownerNeedsVerification({ ownershipPercentage: 24, roles: ['UBO', 'DIRECTOR'] })).toBe(false);
    expect(ownerNeedsVerification({ ownershipPercentage: 0, roles: ['CONTROL_PERSON'] })).toBe(true);
    const minor = owner({ id: OWNER2, ownershipPercentage: 10, hasIdentifier: false }, { birthDate: null });
    expect(packetErrors({ ...complete(), owners: [owner(), minor] })).toEqual([]);
    const control = { ...minor, roles: ['CONTROL_PERSON'] };
    expect(packetErrors({ ...complete(), owners: [owner(), control] }).map((e) => [e.resourceId, e.type, e.field])).toEqual([
      [OWNER2, 'MISSING_FIELD', 'personalInfo.birthDate'],
      [OWNER2, 'MISSING_FIELD', 'personalInfo.identifier'],
      [OWNER2, 'MISSING_IDENTITY_DOCUMENT', undefined],
    ]);
  });

  test('EEA businesses need a proof-of-address document on a regulated platform too', () => {
    const eu = packet({
      customer: business({ regionCode: 'EU', address: DE_ADDRESS }, { country: 'DE' }),
      owners: [owner()],
      documents: [doc(CUSTOMER, 'ARTICLES_OF_ASSOCIATION'), ...ownerDocs],
    });
    expect(types(packetErrors(eu))).toEqual(['MISSING_PROOF_OF_ADDRESS_DOCUMENT']);
    expect(packetErrors({ ...eu, documents: [...eu.documents, doc(CUSTOMER, 'BANK_STATEMENT')] })).toEqual([]);
  });

  test('unregulated platforms need ownership-structure and proof-of-address documents', () => {
    const errors = packetErrors({ ...complete(), platform: unregulated });
    expect(errors).toEqual([
      {
        resourceId: CUSTOMER,
        type: 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
        acceptedDocumentTypes: ['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT'],
        reason: expect.any(String),
      },
      {
        resourceId: CUSTOMER,
        type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
        acceptedDocumentTypes: expect.arrayContaining(['UTILITY_BILL']),
        reason: expect.any(String),
      },
    ]);
    const full = { ...complete(), platform: unregulated };
    expect(packetErrors({ ...full, documents: [...full.documents, doc(CUSTOMER, 'SHAREHOLDER_REGISTER'), doc(CUSTOMER, 'UTILITY_BILL')] })).toEqual([]);
  });

  test('an empty business packet lists everything at once', () => {
    const errors = packetErrors(packet({ customer: business({ address: null, profile: {} }), platform: unregulated }));
    expect(types(errors)).toEqual([
      ...Array(9).fill('MISSING_FIELD'),
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
      'MISSING_BENEFICIAL_OWNER',
    ]);
  });
});
