import type { StablecoinTiming } from '../../../../workflows/stablecoins/definitions';

const seconds = (text: string | undefined, fallback: number) => {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
};

/**
 * The durable timers of the sandbox provider. The funding window is an hour unless
 * SANDBOX_STABLECOIN_FUNDING_WINDOW_SECONDS says otherwise (read per request, so a test can shorten
 * it); the provider's review, provisioning and processing take a second or two.
 */
export function stablecoinTiming(): StablecoinTiming {
  return {
    reviewSeconds: 1,
    provisioningSeconds: 1,
    fundingWindowSeconds: seconds(process.env.SANDBOX_STABLECOIN_FUNDING_WINDOW_SECONDS, 3600),
    providerSeconds: 1,
    settlementSeconds: 2,
  };
}
