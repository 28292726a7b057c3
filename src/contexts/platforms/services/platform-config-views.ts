import type { Platform } from '../entities/index';
import { isActiveFeeConfig } from '../domain/fee-configs';

/** The platform's configuration as GET /config returns it. */
export function platformConfigView(p: Platform) {
  return {
    id: p.id,
    name: p.name,
    umaDomain: p.umaDomain ?? undefined,
    webhookEndpoint: p.webhookEndpoint ?? undefined,
    supportedCurrencies: p.supportedCurrencies,
    isRegulatedFinancialInstitution: p.isRegulatedFinancialInstitution,
    region: p.region,
    embeddedWalletsSupported: p.embeddedWalletsSupported,
    counterpartyInformationRequired: p.counterpartyInformationRequired,
    embeddedWalletConfig: p.embeddedWalletConfig ?? undefined,
    // Only active configs: a zero config deactivates its key (also in rows stored before that rule).
    feeConfigs: p.feeConfigs.filter(isActiveFeeConfig),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
