import {
  Platform,
  defaultCurrencyConfig,
  platformConfigView,
  mergeFeeConfigs,
  unsupportedFeeSourceCurrencies,
  reservedUmaDomainProblems,
  setUmaDomain,
} from '../../platforms';
import { announceOpenedAccounts, provisionPlatformAccounts } from '../../ledger';
import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { PlatformConfigSchema, PlatformConfigUpdateSchema } from './schemas';
import { SUPPORTED_CURRENCY_CODES } from '../../../domain/currencies';
import { sendTestWebhook, webhookEndpointErrors } from '../../webhooks';

export const configRoutes = [
  defineRoute({
    method: 'get',
    path: '/config',
    operationId: 'getPlatformConfig',
    summary: 'Get platform configuration',
    description: "Read the calling platform's configuration",
    tags: ['Platform Configuration'],
    responses: { 200: { description: 'The configuration', schema: PlatformConfigSchema }, 401: errorResponses[401] },
    handler: async ({ em, caller }) => {
      const platform = await em.findOneOrFail(Platform, { id: caller.platformId });
      return { status: 200, body: platformConfigView(platform) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/config',
    operationId: 'updatePlatformConfig',
    summary: 'Update platform configuration',
    description: "Change the platform's configuration; omitted fields stay as they are",
    tags: ['Platform Configuration'],
    body: PlatformConfigUpdateSchema,
    // The webhook destination policy judges the endpoint for the caller's environment (and at every
    // delivery again); a fee config in a currency other than USD is not supported yet; a UMA domain
    // may not be a reserved one. All are field errors of the 400 (with any other invalid fields), so
    // nothing is changed.
    check: async ({ body, caller, deps }) => [
      ...webhookEndpointErrors((body as { webhookEndpoint?: unknown }).webhookEndpoint, caller.environment, deps.config),
      ...unsupportedFeeSourceCurrencies((body as { feeConfigs?: unknown }).feeConfigs, SUPPORTED_CURRENCY_CODES),
      ...reservedUmaDomainProblems(caller.platformId, (body as { umaDomain?: unknown }).umaDomain),
    ],
    responses: {
      200: { description: 'The updated configuration', schema: PlatformConfigSchema },
      400: {
        description: 'INVALID_INPUT: every invalid field, among them each fee config whose sourceCurrency is not USD (constraint.rule supportedCurrency)',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      409: {
        description:
          'UMA_DOMAIN_TAKEN: another platform holds the umaDomain; UMA_DOMAIN_IN_USE: customers have addresses on the current umaDomain, so it cannot be changed',
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, body, deps }) => {
      let opened: Awaited<ReturnType<typeof provisionPlatformAccounts>> = [];
      const platform = await em.transactional(async (tx) => {
        const p = await tx.findOneOrFail(Platform, { id: caller.platformId });
        if (body.umaDomain !== undefined) await setUmaDomain(tx, p, body.umaDomain);
        if (body.webhookEndpoint !== undefined) p.webhookEndpoint = body.webhookEndpoint;
        if (body.embeddedWalletConfig !== undefined) p.embeddedWalletConfig = { ...(p.embeddedWalletConfig ?? {}), ...body.embeddedWalletConfig };
        // Merge by (feeType, sourceCurrency); a zero config deactivates its key (domain/fee-configs).
        if (body.feeConfigs !== undefined) p.feeConfigs = mergeFeeConfigs(p.feeConfigs, body.feeConfigs);
        if (body.supportedCurrencies !== undefined) {
          p.supportedCurrencies = body.supportedCurrencies.map((c) => ({ ...defaultCurrencyConfig(c.currencyCode), ...c }));
          // The platform holds one internal account per supported currency.
          opened = await provisionPlatformAccounts(tx, p);
        }
        p.updatedAt = new Date();
        await tx.flush();
        return p;
      });
      await announceOpenedAccounts({ em, temporal: deps.temporal, taskQueue: deps.taskQueue, environment: caller.environment }, opened);
      if (body.webhookEndpoint) {
        // Announce the new endpoint with a TEST event; its outcome does not change this reply.
        void sendTestWebhook(deps, caller, { wait: false }).catch(() => undefined);
      }
      return { status: 200, body: platformConfigView(platform) };
    },
  }),
];
