import request from 'supertest';
import { Api, BASE, type Harness } from './harness';

/**
 * What a platform and its agent do to get the agent working: the platform creates the agent for its
 * customer with a policy, the agent redeems its device code for a bearer token. Returns the agent's id
 * and an API client acting as the agent.
 */
export async function connectedAgent(h: Harness, platformApi: Api, customerId: string, policy: Record<string, unknown>, name = 'Payments bot') {
  const created = await platformApi.post('/agents', { name, customerId, policy });
  if (created.status !== 201) throw new Error(`POST /agents: ${created.status} ${created.text.slice(0, 300)}`);
  const redeemed = await request(h.app).post(`${BASE}/agents/device-codes/${encodeURIComponent(created.body.deviceCode.code)}/redeem`);
  if (redeemed.status !== 200) throw new Error(`redeem: ${redeemed.status} ${redeemed.text.slice(0, 300)}`);
  return { agentId: created.body.agent.id as string, agent: new Api(h.app, `Bearer ${redeemed.body.accessToken}`) };
}
