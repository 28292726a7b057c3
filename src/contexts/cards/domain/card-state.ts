/** Card lifecycle (spec §3 "Card status"; reference CardState / CardStateReason). Pure rules, no I/O. */

export const CARD_STATES = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type CardState = (typeof CARD_STATES)[number];

/** Spec names win over the reference's: the operator's own close is CLOSED_BY_SVC (reference: CLOSED_BY_GRID). */
export const CARD_STATE_REASONS = ['ISSUER_REJECTED', 'CLOSED_BY_PLATFORM', 'CLOSED_BY_SVC'] as const;
export type CardStateReason = (typeof CARD_STATE_REASONS)[number];

export const CARD_BRANDS = ['VISA', 'MASTERCARD'] as const;
export const CARD_FORMS = ['VIRTUAL'] as const;

/** The states a platform may ask for with PATCH /cards/{id}. */
export const REQUESTABLE_STATES = ['ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type RequestableState = (typeof REQUESTABLE_STATES)[number];

export interface CardChange {
  state?: RequestableState;
  fundingSources?: string[];
  /** null clears the limit; undefined leaves it. */
  maxSpendPerTransaction?: bigint | null;
}

export type ChangeRefusal = { code: 'INVALID_STATE_TRANSITION' | 'CARD_ALREADY_CLOSED' | 'CARD_NOT_MUTABLE'; message: string };

export type ChangePlan = { ok: true; state: CardState; stateReason: CardStateReason | null; stateChanged: boolean } | ({ ok: false } & ChangeRefusal);

const ALLOWED: Record<CardState, readonly CardState[]> = {
  PENDING_KYC: [],
  PROCESSING: [],
  ACTIVE: ['FROZEN', 'CLOSED'],
  FROZEN: ['ACTIVE', 'CLOSED'],
  CLOSED: [],
};

/** Whether a requested change may be applied to a card in `current`, and the state it leads to. */
export function planCardChange(current: CardState, currentReason: CardStateReason | null, change: CardChange): ChangePlan {
  if (current === 'CLOSED') {
    if (change.state === 'CLOSED') return { ok: false, code: 'CARD_ALREADY_CLOSED', message: 'The card is already CLOSED' };
    return { ok: false, code: 'CARD_NOT_MUTABLE', message: 'A CLOSED card cannot be changed' };
  }
  if (change.state === undefined) return { ok: true, state: current, stateReason: currentReason, stateChanged: false };
  if (!ALLOWED[current].includes(change.state)) {
    return { ok: false, code: 'INVALID_STATE_TRANSITION', message: `A card cannot go from ${current} to ${change.state}` };
  }
  return { ok: true, state: change.state, stateReason: change.state === 'CLOSED' ? 'CLOSED_BY_PLATFORM' : null, stateChanged: true };
}

/** A card counts against the platform's live-card cap (and one-per-cardholder) until it is CLOSED. */
export function isLive(state: CardState): boolean {
  return state !== 'CLOSED';
}

export interface CardLimits {
  /** The platform's live-card cap; null = no cap. */
  maxLiveCards: number | null;
  oneCardPerCardholder: boolean;
}

/** Whether one more card may be issued, given the live cards the platform and the cardholder have. */
export function cardLimitRefusal(limits: CardLimits, live: { platform: number; cardholder: number }): string | null {
  if (limits.maxLiveCards !== null && live.platform >= limits.maxLiveCards)
    return `The platform's live-card limit (${limits.maxLiveCards}) is reached; close a card or contact the operator`;
  if (limits.oneCardPerCardholder && live.cardholder >= 1) return 'The platform allows one live card per cardholder; close the existing card first';
  return null;
}

export type RevealRefusal = { code: 'CARD_NOT_MUTABLE' | 'CONFLICT'; message: string };

/**
 * Why a card's number may not be revealed now, or null. Only an ACTIVE card shows it: a CLOSED
 * card is done with (the reference's code for a closed card), and a FROZEN one is often frozen
 * because it may be compromised, so its holder unfreezes it first (one PATCH).
 */
export function revealRefusal(state: CardState, hasNumber: boolean): RevealRefusal | null {
  if (state === 'CLOSED') return { code: 'CARD_NOT_MUTABLE', message: 'The card is CLOSED: its details are no longer shown' };
  if (state === 'FROZEN') return { code: 'CONFLICT', message: 'The card is FROZEN: unfreeze it (state ACTIVE) to reveal its details' };
  if (state !== 'ACTIVE' || !hasNumber) return { code: 'CONFLICT', message: `The card has no number to reveal yet (${state})` };
  return null;
}
