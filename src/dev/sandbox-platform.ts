import type { NewPlatform } from '../contexts/platforms/services/platforms';
import { OWN_DEFAULT_UMA_DOMAIN } from '../contexts/platforms/domain/uma-domains';

/**
 * The sandbox platform `npm start` creates on first start. Regulated, so sandbox individuals are
 * approved at creation (spec §8) and can be funded at once; its UMA domain is its default one,
 * so invitations work out of the box on the domain its customers' addresses are on.
 */
export const DEV_SANDBOX_PLATFORM: NewPlatform = {
  name: 'Sandbox platform',
  currencies: ['USD', 'EUR', 'USDC'],
  isRegulatedFinancialInstitution: true,
  umaDomain: OWN_DEFAULT_UMA_DOMAIN,
};
