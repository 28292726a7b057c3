import type { EntityManager } from '@mikro-orm/postgresql';
import { findInternalAccount, internalAccountView, InternalAccount } from '../../ledger';
import type { SignedOperation } from './signed-requests';
import { sealWalletExport } from './client-sealing';
import { walletSeed } from './wallet-secrets';
import { walletMnemonic } from '../domain/wallet-mnemonic';

/**
 * PATCH /internal-accounts/{id} of an embedded wallet: its owner signs the privacy toggle. Wallet
 * settings changes exclude each other while one waits for its signature (OPERATION_IN_PROGRESS).
 */
export function walletPrivacyOperation(
  platformId: string,
  accountId: string,
  privateEnabled: boolean,
): SignedOperation<ReturnType<typeof internalAccountView>> {
  return {
    name: 'WALLET_UPDATE',
    activityType: 'ACTIVITY_TYPE_UPDATE_WALLET_SETTINGS',
    conflictGroup: 'WALLET_UPDATE',
    prepare: async () => ({ parameters: { privateEnabled } }),
    execute: async (tx: EntityManager) => {
      await tx.nativeUpdate(InternalAccount, { id: accountId, platformId }, { privateEnabled, updatedAt: new Date() });
      const found = await findInternalAccount(tx, platformId, accountId);
      return internalAccountView(found!.account, found!.ledger);
    },
  };
}

/**
 * POST /internal-accounts/{id}/export: once the owner signed, the wallet's mnemonic, HPKE-sealed to
 * the clientPublicKey bound into the request (the same key on both legs: the body is bound).
 */
export function walletExportOperation(
  masterKey: Buffer,
  wallet: { platformId: string; id: string },
  clientPublicKey: string,
): SignedOperation<{ id: string; encryptedWalletCredentials: string }> {
  return {
    name: 'WALLET_EXPORT',
    activityType: 'ACTIVITY_TYPE_EXPORT_WALLET',
    prepare: async () => ({ parameters: { targetPublicKey: clientPublicKey } }),
    execute: async (tx: EntityManager) => ({
      id: wallet.id,
      encryptedWalletCredentials: await sealWalletExport(clientPublicKey, wallet.id, walletMnemonic(await walletSeed(tx, masterKey, wallet))),
    }),
  };
}
