import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { DomainError } from '../../../domain/errors';
import { toMinor } from '../../../domain/money';
import { changeCard, issueCard, revealCard } from '../services/card-operations';
import { cardView } from '../services/card-views';
import { createProblems, findCard, fundingSourceProblems, listCards } from '../services/cards';
import { CardCreateSchema, CardListQuerySchema, CardListSchema, CardRevealSchema, CardSchema, CardUpdateSchema } from '../schemas/card-schemas';

const TAGS = ['Cards'];
const CardIdParams = IdParam('cardId');
const conflict = (description: string) => ({ description, schema: errorResponses[400].schema });

export const cardRoutes = [
  defineRoute({
    method: 'post',
    path: '/cards',
    operationId: 'createCard',
    summary: 'Issue a card',
    description: 'Issue a VIRTUAL card to an APPROVED customer, funded from their internal accounts; it starts PROCESSING',
    tags: TAGS,
    body: CardCreateSchema,
    idempotent: true,
    check: async ({ em, caller, body }) => {
      if (caller.environment !== 'SANDBOX')
        throw new DomainError('NOT_IMPLEMENTED', 'No card issuer is connected to this installation; cards are available with sandbox tokens');
      return createProblems(em, caller.platformId, body as Record<string, unknown>);
    },
    responses: {
      201: { description: 'Issued: PROCESSING until the issuer answers (CARD.STATE_CHANGE webhook)', schema: CardSchema },
      400: {
        description:
          'FUNDING_SOURCE_INELIGIBLE when the funding sources are all that is wrong (not the cardholder’s ACTIVE accounts, or in another currency; each listed with rule fundingSourceIneligible), INVALID_INPUT (every invalid field listed) or CARDHOLDER_KYC_NOT_APPROVED',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      409: conflict('CARD_LIMIT_REACHED: the platform’s live-card cap, or one live card per cardholder; closing a card frees a slot'),
      501: { description: 'NOT_IMPLEMENTED: no card issuer is connected outside the sandbox', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, body, deps, idempotencyKey }) => {
      const card = await issueCard(em, deps, {
        platformId: caller.platformId,
        environment: caller.environment,
        ...(idempotencyKey ? { idempotencyKey } : {}),
        body: {
          cardholderId: body.cardholderId,
          form: body.form,
          fundingSources: body.fundingSources,
          ...(body.platformCardId ? { platformCardId: body.platformCardId } : {}),
          ...(body.maxSpendPerTransaction !== undefined ? { maxSpendPerTransaction: toMinor(body.maxSpendPerTransaction) } : {}),
        },
      });
      return { status: 201, body: cardView(card) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/cards',
    operationId: 'listCards',
    summary: 'List cards',
    description: 'List cards, newest first unless sortOrder=asc, by cardholder, funding account, platformCardId or state',
    tags: TAGS,
    query: CardListQuerySchema,
    responses: { 200: { description: 'A page of cards', schema: CardListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listCards(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/cards/:cardId',
    operationId: 'getCardById',
    summary: 'Get a card',
    description: 'Fetch one card (never its PAN or CVV)',
    tags: TAGS,
    params: CardIdParams,
    responses: { 200: { description: 'The card', schema: CardSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: cardView(await findCard(em, caller.platformId, params.cardId)) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/cards/:cardId',
    operationId: 'updateCardById',
    summary: 'Update a card',
    description: 'Freeze, unfreeze or close a card, replace its funding sources, set or clear maxSpendPerTransaction',
    tags: TAGS,
    params: CardIdParams,
    body: CardUpdateSchema,
    check: async ({ em, caller, params, body }) => {
      const card = await findCard(em, caller.platformId, params.cardId ?? '');
      const raw = body as Record<string, unknown>;
      return raw.fundingSources === undefined ? [] : fundingSourceProblems(em, caller.platformId, card.cardholderId, raw.fundingSources, card.currency);
    },
    responses: {
      200: { description: 'The changed card', schema: CardSchema },
      400: {
        description:
          'FUNDING_SOURCE_INELIGIBLE when the funding sources are all that is wrong (not the cardholder’s ACTIVE accounts, or not in the card’s currency), else INVALID_INPUT (every invalid field listed)',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      404: errorResponses[404],
      409: conflict('INVALID_STATE_TRANSITION (only ACTIVE ⇄ FROZEN and ACTIVE | FROZEN → CLOSED), CARD_ALREADY_CLOSED, CARD_NOT_MUTABLE (a CLOSED card)'),
    },
    handler: async ({ em, caller, params, body, deps }) => {
      const change = {
        ...(body.state ? { state: body.state } : {}),
        ...(body.fundingSources ? { fundingSources: body.fundingSources } : {}),
        ...(body.maxSpendPerTransaction !== undefined
          ? { maxSpendPerTransaction: body.maxSpendPerTransaction === null ? null : String(body.maxSpendPerTransaction) }
          : {}),
      };
      return { status: 200, body: await changeCard(em, deps, caller.platformId, params.cardId, change) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/cards/:cardId/reveal',
    operationId: 'revealCard',
    summary: 'Reveal card details',
    description: 'A signed URL, valid for minutes, where the cardholder sees the PAN and CVV',
    tags: TAGS,
    params: CardIdParams,
    responses: {
      200: { description: 'The reveal URL: a bearer secret, never store or log it', schema: CardRevealSchema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: conflict(
        'CARD_NOT_MUTABLE: the card is CLOSED; CONFLICT: the card is FROZEN (unfreeze it first) or has no number yet (PROCESSING, or rejected by the issuer)',
      ),
    },
    handler: async ({ em, caller, params, deps }) => {
      return { status: 200, body: await revealCard(em, deps.config, caller.platformId, params.cardId, caller.tokenId) };
    },
  }),
];
