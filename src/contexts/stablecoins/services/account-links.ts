import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { assertExternalAccountUsable, primaryIdentifier, ExternalAccount } from '../../external-accounts';
import type { AddressLinkStatus } from '../domain/provider';
import { StablecoinAccountLink } from '../entities';
import { onLink, type UsableLink } from './provider-client';

/** What an external account does in an operation: funds a mint by ACH debit, receives minted tokens, or receives a burn's fiat. */
export type AccountRole = 'achDebit' | 'mintDestination' | 'burnDestination';

const ROLE_NEEDS: Record<AccountRole, { accountType: string; what: string }> = {
  achDebit: { accountType: 'USD_ACCOUNT', what: 'a US bank account (USD_ACCOUNT) to debit' },
  mintDestination: { accountType: 'SPARK_WALLET', what: 'a Spark wallet (SPARK_WALLET) to receive the tokens' },
  burnDestination: { accountType: 'USD_ACCOUNT', what: 'a US bank account (USD_ACCOUNT) to receive the fiat' },
};

/**
 * The platform's own external account for a role in an issuer operation. Issuer operations move
 * the platform's money, so a customer's account is not supported; the account must be of the
 * kind the role needs and usable now (not deleted, its bank validation passed).
 */
export async function issuerAccount(em: EntityManager, platformId: string, accountId: string, role: AccountRole, field: string): Promise<ExternalAccount> {
  const account = await em.findOne(ExternalAccount, { id: accountId, platformId });
  if (!account || account.deletedAt)
    throw new DomainError('NOT_FOUND', `External account ${accountId} not found`, {
      errors: [{ field, constraint: 'exists', message: 'no such external account' }],
    });
  const needs = ROLE_NEEDS[role];
  if (account.customerId)
    throw new DomainError(
      'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED',
      `Stablecoin operations use the platform's own external accounts; ${accountId} belongs to a customer`,
      { errors: [{ field, constraint: 'platformOwned', message: 'must be a platform external account' }] },
    );
  if (account.accountInfo.accountType !== needs.accountType) {
    throw new DomainError('STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED', `${accountId} is a ${account.accountInfo.accountType}; this needs ${needs.what}`, {
      errors: [{ field, constraint: 'accountType', message: `must be ${needs.what}` }],
    });
  }
  // An ACH debit needs the account type for its transaction code: the provider cannot link an account for debits without it.
  if (role === 'achDebit' && !account.accountInfo.bankAccountType) {
    throw new DomainError(
      'STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED',
      'The provider links a bank account for ACH debits only with its bankAccountType (CHECKING or SAVINGS); register the account with it',
      {
        errors: [{ field, constraint: 'bankAccountType', message: 'the account needs a bankAccountType to be debited' }],
      },
    );
  }
  assertExternalAccountUsable(account, { platformRegion: 'US', field });
  return account;
}

/**
 * The provider's address for an external account, linked on first use and remembered per
 * provider account link. A link still pending is asked again; a refused one is not (it stays
 * refused: register another account).
 */
export async function providerAddress(em: EntityManager, usable: UsableLink, account: ExternalAccount): Promise<string> {
  const key = { providerAccountLinkId: usable.link.id, externalAccountId: account.id };
  const known = await em.findOne(StablecoinAccountLink, key);
  if (known?.status === 'REFUSED')
    throw new DomainError(
      'STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED',
      `Linking ${account.id} with the provider failed earlier; it cannot be used with this provider account`,
    );
  let status: AddressLinkStatus = known?.status ?? 'PENDING';
  let addressId = known?.providerAddressId ?? null;
  if (!known || known.status !== 'LINKED') {
    const kind = account.accountInfo.accountType === 'SPARK_WALLET' ? 'SPARK_WALLET' : 'BANK_ACCOUNT';
    ({ status, addressId } = await onLink(em, usable, (u) =>
      u.client.linkAddress(u.credentials, u.link.providerAccountId, { kind, identifier: primaryIdentifier(account.accountInfo) }),
    ));
    const now = new Date();
    await em
      .createQueryBuilder(StablecoinAccountLink)
      .insert({ ...key, status, providerAddressId: addressId, createdAt: now, updatedAt: now })
      .onConflict(['providerAccountLinkId', 'externalAccountId'])
      .merge(['status', 'providerAddressId', 'updatedAt'])
      .execute();
  }
  switch (status) {
    case 'LINKED':
      return addressId!;
    case 'PENDING':
      throw new DomainError('STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED', `The provider has not finished linking ${account.id}; try again later`);
    case 'REFUSED':
      throw new DomainError('STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED', `The provider refused to link ${account.id}`);
    case 'MANUAL_LINK_REQUIRED':
      throw new DomainError(
        'STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED',
        `The provider links ${account.id} only when the issuer adds it in the provider's own dashboard; add it there and try again`,
      );
  }
}
