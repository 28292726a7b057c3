import { randomBytes } from 'node:crypto';
import { Invitation } from '../../src/contexts/invitations/entities';
import { strandedInvitations } from '../../src/contexts/invitations/services/stranded-invitations';
import { startStrandedOf } from '../../src/temporal/start-stranded';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { eventually } from '../support/eventually';
import { Harness } from '../support/harness';
import { ReferenceConformance } from '../support/reference-conformance';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;
const rows = (platformId: string) => h.orm.em.fork().count(Invitation, { platformId });

/** A platform with invitations configured (an UMA domain) and one customer, the inviter. */
async function configured(): Promise<Platform & { inviterUma: string; domain: string }> {
  const p = await h.platform();
  const domain = `${p.platform.id.slice(9, 17)}.uma.example.com`;
  await p.api.patch('/config', { umaDomain: domain }).expect(200);
  const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'inviter', fullName: 'Ivy Inviter' }).expect(201);
  return { ...p, inviterUma: customer.body.umaAddress as string, domain };
}

async function invite(p: Platform & { inviterUma: string }, extra: Record<string, unknown> = {}) {
  const res = await p.api.post('/invitations', { inviterUma: p.inviterUma, ...extra });
  expect(res.status).toBe(201);
  return res.body as { code: string; status: string; url: string };
}

const claimedEvents = (code: string) => h.receiver.ofType('INVITATION.CLAIMED').filter((x) => x.body.data.code === code);

describe('POST /invitations', () => {
  test('PENDING, with a link on the platform domain, the amount in minor units of the inviter currency', async () => {
    const p = await configured();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await p.api.post('/invitations', { inviterUma: p.inviterUma.toUpperCase(), firstName: 'Bob', amountToSend: 12550, expiresAt }).expect(201);
    expect(res.body).toMatchObject({
      status: 'PENDING',
      inviterUma: p.inviterUma,
      firstName: 'Bob',
      amountToSend: { amount: 12550, currency: { code: 'USD', decimals: 2 } },
      expiresAt,
    });
    expect(res.body.code).toMatch(/^[0-9a-f]{16}$/);
    expect(res.body.url).toBe(`https://${p.domain}/invite/${res.body.code}`);
    expect(res.body).not.toHaveProperty('inviteeUma');
    const row = await h.orm.em.fork().findOneOrFail(Invitation, { code: res.body.code });
    expect(row.amountToSend).toBe(12550n);
    // Its lifecycle workflow runs, found by the code, with the platform and inviter attached.
    const description = await h.temporal.workflow.getHandle(res.body.code).describe();
    expect(description.type).toBe('invitationLifecycle');
    expect(description.status.name).toBe('RUNNING');
    expect((await p.api.get(`/invitations/${res.body.code}`).expect(200)).body).toEqual(res.body);
  });

  test('INVITATIONS_NOT_CONFIGURED without an UMA domain; nothing stored', async () => {
    const p = await h.platform();
    const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'c', fullName: 'No Domain' }).expect(201);
    const res = await p.api.post('/invitations', { inviterUma: customer.body.umaAddress }).expect(400);
    expect(res.body.code).toBe('INVITATIONS_NOT_CONFIGURED');
    expect(await rows(p.platform.id)).toBe(0);
  });

  test('INVALID_UMA_ADDRESS for a malformed inviterUma or one that is not a customer of the platform', async () => {
    const p = await configured();
    const other = await configured();
    for (const inviterUma of ['alice', '$nobody@elsewhere.example.com', other.inviterUma]) {
      const res = await p.api.post('/invitations', { inviterUma }).expect(400);
      expect([inviterUma, res.body.code, res.body.details.errors[0].field]).toEqual([inviterUma, 'INVALID_UMA_ADDRESS', 'inviterUma']);
    }
    expect(await rows(p.platform.id)).toBe(0);
  });

  test('INVALID_INPUT lists every invalid field (the bad inviterUma among them); nothing stored', async () => {
    const p = await configured();
    const res = await p.api.post('/invitations', { inviterUma: 'nope', amountToSend: 0, expiresAt: '2001-01-01T00:00:00Z', firstName: 7 }).expect(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect((res.body.details.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['amountToSend', 'expiresAt', 'firstName', 'inviterUma']);
    const fraction = await p.api.post('/invitations', { inviterUma: p.inviterUma, amountToSend: 1.5 }).expect(400);
    expect(fraction.body.details.errors[0].field).toBe('amountToSend');
    await p.api.post('/invitations', {}).expect(400);
    expect(await rows(p.platform.id)).toBe(0);
  });
});

describe('claim', () => {
  test('PENDING → CLAIMED with the invitee, then INVITATION.CLAIMED is delivered; a second claim is INVITATION_ALREADY_CLAIMED', async () => {
    const p = await configured();
    const { code } = await invite(p, { amountToSend: 500 });
    const res = await p.api.post(`/invitations/${code}/claim`, { inviteeUma: '$bob@other.example.com' }).expect(200);
    expect(res.body).toMatchObject({ code, status: 'CLAIMED', inviteeUma: '$bob@other.example.com', claimedAt: expect.any(String) });
    await h.receiver.waitFor(() => claimedEvents(code).length > 0);
    const [hook] = claimedEvents(code);
    expect(hook!.body.data).toEqual(res.body);
    expect(ReferenceConformance.load().schemaProblems('InvitationClaimedWebhook', hook!.body)).toEqual([]);

    const again = await p.api.post(`/invitations/${code}/claim`, { inviteeUma: '$carol@other.example.com' }).expect(400);
    expect(again.body.code).toBe('INVITATION_ALREADY_CLAIMED');
    const cancel = await p.api.post(`/invitations/${code}/cancel`).expect(400);
    expect(cancel.body.code).toBe('INVITATION_ALREADY_CLAIMED');
    expect((await p.api.get(`/invitations/${code}`)).body.inviteeUma).toBe('$bob@other.example.com');
    // The run ends once the invitation is settled and its event delivered.
    await eventually(
      () => h.temporal.workflow.getHandle(code).describe(),
      (d) => d.status.name === 'COMPLETED',
    );
    expect(await h.orm.em.fork().count(WebhookEvent, { platformId: p.platform.id, type: 'INVITATION.CLAIMED' })).toBe(1);
  });

  test('INVALID_UMA_ADDRESS for a malformed invitee or the inviter itself; the invitation stays PENDING', async () => {
    const p = await configured();
    const { code } = await invite(p);
    for (const inviteeUma of ['bob@example.com', p.inviterUma]) {
      const res = await p.api.post(`/invitations/${code}/claim`, { inviteeUma }).expect(400);
      expect(res.body.code).toBe('INVALID_UMA_ADDRESS');
    }
    const missing = await p.api.post(`/invitations/${code}/claim`, {}).expect(400);
    expect([missing.body.code, missing.body.details.errors[0].field]).toEqual(['INVALID_INPUT', 'inviteeUma']);
    expect((await p.api.get(`/invitations/${code}`)).body.status).toBe('PENDING');
  });

  test('two claims at once: exactly one wins, one event', async () => {
    const p = await configured();
    const { code } = await invite(p);
    const results = await Promise.all(
      ['$one@x.example.com', '$two@x.example.com'].map((inviteeUma) => p.api.post(`/invitations/${code}/claim`, { inviteeUma })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.code).toBe('INVITATION_ALREADY_CLAIMED');
    await h.receiver.waitFor(() => claimedEvents(code).length > 0);
    expect(await h.orm.em.fork().count(WebhookEvent, { platformId: p.platform.id, type: 'INVITATION.CLAIMED' })).toBe(1);
  });
});

describe('cancel', () => {
  test('PENDING → CANCELLED; then claim and cancel are INVITATION_CANCELLED', async () => {
    const p = await configured();
    const { code } = await invite(p);
    expect((await p.api.post(`/invitations/${code}/cancel`).expect(200)).body).toMatchObject({ code, status: 'CANCELLED' });
    expect((await p.api.post(`/invitations/${code}/claim`, { inviteeUma: '$bob@x.example.com' }).expect(400)).body.code).toBe('INVITATION_CANCELLED');
    expect((await p.api.post(`/invitations/${code}/cancel`).expect(400)).body.code).toBe('INVITATION_CANCELLED');
    expect(claimedEvents(code)).toHaveLength(0);
  });
});

describe('expiry', () => {
  test('after expiresAt the invitation is EXPIRED (the workflow timer writes it) and can be neither claimed nor cancelled', async () => {
    const p = await configured();
    const { code } = await invite(p, { expiresAt: new Date(Date.now() + 2_000).toISOString() });
    const row = () => h.orm.em.fork().findOneOrFail(Invitation, { code });
    expect((await eventually(row, (r) => r.status === 'EXPIRED', 20_000)).status).toBe('EXPIRED');
    expect((await p.api.get(`/invitations/${code}`)).body.status).toBe('EXPIRED');
    const claim = await p.api.post(`/invitations/${code}/claim`, { inviteeUma: '$late@x.example.com' }).expect(400);
    expect([claim.body.code, claim.body.details.errors[0]]).toEqual([
      'INVALID_INPUT',
      expect.objectContaining({ field: 'invitationCode', constraint: { rule: 'expired' } }),
    ]);
    expect((await p.api.post(`/invitations/${code}/cancel`).expect(400)).body.details.errors[0].field).toBe('invitationCode');
  });
});

describe('the sweeper', () => {
  test('expires an overdue invitation whose workflow never started', async () => {
    const p = await configured();
    const { code: template } = await invite(p);
    const em = h.orm.em.fork();
    const original = await em.findOneOrFail(Invitation, { code: template });
    // As if the process died between the insert and the start: a row, and no workflow.
    const code = randomBytes(8).toString('hex');
    const past = new Date(Date.now() - 120_000);
    em.create(Invitation, { ...original, code, url: `https://${p.domain}/invite/${code}`, expiresAt: past, createdAt: past, updatedAt: past });
    await em.flush();
    expect((await p.api.get(`/invitations/${code}`)).body.status).toBe('EXPIRED');
    expect(await startStrandedOf(h.orm, h.temporal, strandedInvitations, { taskQueue: h.taskQueue, platformId: p.platform.id })).toContain(code);
    const row = () => h.orm.em.fork().findOneOrFail(Invitation, { code });
    expect((await eventually(row, (r) => r.status === 'EXPIRED')).status).toBe('EXPIRED');
    // The invitation with a running workflow and no expiry is not touched.
    expect((await h.orm.em.fork().findOneOrFail(Invitation, { code: template })).status).toBe('PENDING');
  });
});

describe('tenant isolation', () => {
  test('another platform gets 404 INVITATION_NOT_FOUND on every invitation endpoint and changes nothing', async () => {
    const a = await configured();
    const b = await configured();
    const { code } = await invite(a);
    const answers = [
      await b.api.get(`/invitations/${code}`),
      await b.api.post(`/invitations/${code}/claim`, { inviteeUma: '$b@x.example.com' }),
      await b.api.post(`/invitations/${code}/cancel`),
      await a.api.get('/invitations/0000000000000000'),
    ];
    for (const res of answers) expect([res.status, res.body.code]).toEqual([404, 'INVITATION_NOT_FOUND']);
    const after = await a.api.get(`/invitations/${code}`).expect(200);
    expect(after.body.status).toBe('PENDING');
    // B cannot invite on behalf of A's customer either.
    expect((await b.api.post('/invitations', { inviterUma: a.inviterUma }).expect(400)).body.code).toBe('INVALID_UMA_ADDRESS');
  });
});
