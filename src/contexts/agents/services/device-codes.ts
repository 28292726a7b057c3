import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../../domain/errors';
import { DEVICE_CODE_TTL_MS, isExpired } from '../domain/device-codes';
import { Agent, AgentAccessToken, AgentDeviceCode } from '../entities';
import { accessTokenHash, deviceCodeHash, newAccessToken, newDeviceCode } from './agent-secrets';
import { findAgent } from './agent-lookup';

/** A new code for the agent; its earlier unredeemed codes stop working. The code itself is in this answer only. */
export async function issueDeviceCode(tx: EntityManager, masterKey: Buffer, agent: Agent, now = new Date()) {
  await tx.nativeUpdate(AgentDeviceCode, { agentId: agent.id, redeemedAt: null, invalidatedAt: null }, { invalidatedAt: now });
  const code = newDeviceCode();
  const row = tx.create(AgentDeviceCode, {
    id: `AgentDeviceCode:${randomUUID()}`,
    platformId: agent.platformId,
    agentId: agent.id,
    codeHash: deviceCodeHash(masterKey, code),
    expiresAt: new Date(now.getTime() + DEVICE_CODE_TTL_MS),
    redeemedAt: null,
    invalidatedAt: null,
    createdAt: now,
  });
  await tx.flush();
  return { code, row };
}

/** POST /agents/{id}/device-codes: refused while the agent is connected (its software is installed; delete it to start over). */
export async function regenerateDeviceCode(em: EntityManager, masterKey: Buffer, platformId: string, agentId: string) {
  return em.transactional(async (tx) => {
    const agent = await findAgent(tx, platformId, agentId, true);
    if (agent.isConnected) throw new DomainError('CONFLICT', 'The agent is already connected: its device code was redeemed');
    return issueDeviceCode(tx, masterKey, agent);
  });
}

/** A code of the platform, by its value (only its hash is stored); another platform's is not found. */
export async function findDeviceCode(em: EntityManager, masterKey: Buffer, platformId: string, code: string): Promise<AgentDeviceCode> {
  const row = await em.findOne(AgentDeviceCode, { codeHash: deviceCodeHash(masterKey, code), platformId });
  if (!row) throw DomainError.notFound('Device code');
  return row;
}

/** The credential of a redemption: the code's row and its agent's platform and environment, whatever the platform, or null. */
export async function deviceCodeCredential(em: EntityManager, masterKey: Buffer, code: string) {
  const row = await em.findOne(AgentDeviceCode, { codeHash: deviceCodeHash(masterKey, code) });
  if (!row) return null;
  const agent = await em.findOne(Agent, { id: row.agentId }, { fields: ['environment'] });
  return agent ? { codeId: row.id, platformId: row.platformId, environment: agent.environment } : null;
}

const unusable = (rule: string, message: string) => DomainError.invalidInput([{ field: 'code', constraint: rule, message }], `The device code ${message}`);

/**
 * Redeems a code once: the first redemption gets the agent's bearer token (shown in this answer
 * only, stored as a keyed hash); a redeemed, replaced or expired code is 400. The code's row is
 * locked, so two concurrent redemptions cannot both succeed.
 */
export async function redeemDeviceCode(em: EntityManager, masterKey: Buffer, codeId: string, now = new Date()) {
  return em.transactional(async (tx) => {
    const row = await tx.findOne(AgentDeviceCode, { id: codeId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) throw DomainError.notFound('Device code');
    if (row.redeemedAt) throw unusable('redeemed', 'was already redeemed');
    if (row.invalidatedAt) throw unusable('invalidated', 'was replaced by a newer one');
    if (isExpired(row.expiresAt, now)) throw unusable('expired', 'has expired');
    const agent = await tx.findOneOrFail(Agent, { id: row.agentId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const accessToken = newAccessToken();
    tx.create(AgentAccessToken, {
      id: `AgentAccessToken:${randomUUID()}`,
      platformId: agent.platformId,
      agentId: agent.id,
      tokenHash: accessTokenHash(masterKey, accessToken),
      createdAt: now,
    });
    row.redeemedAt = now;
    agent.isConnected = true;
    agent.updatedAt = now;
    await tx.flush();
    return { agent, accessToken };
  });
}
