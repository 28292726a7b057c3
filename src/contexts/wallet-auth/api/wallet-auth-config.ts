import type { ApiDeps } from '../../../api/context';
import { loadWalletAuthConfig, type WalletAuthConfig } from '../services/wallet-auth-config';

let defaults: WalletAuthConfig | undefined;

/** The app's passkey and OIDC settings; without any, the defaults of loadWalletAuthConfig (RP id localhost, Google and Apple). */
export function walletAuthConfigOf(deps: ApiDeps): WalletAuthConfig {
  return deps.walletAuth ?? (defaults ??= loadWalletAuthConfig({}));
}
