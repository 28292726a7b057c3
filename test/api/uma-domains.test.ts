import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { Customer } from '../../src/contexts/customers/entities';
import { Invitation } from '../../src/contexts/invitations/entities';
import { Platform } from '../../src/contexts/platforms/entities';
import { defaultUmaDomain } from '../../src/contexts/platforms/domain/uma-domains';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { DEV_SANDBOX_PLATFORM } from '../../src/dev/sandbox-platform';
import { Api, Harness } from '../support/harness';
import { insertCustomer } from '../support/onboarding-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

/** A domain no other test (or earlier run on the same database) holds. */
const freshDomain = (label = 'alice') => `${label}-${randomUUID().slice(0, 8)}.example`;
const person = (umaAddress?: string, platformCustomerId = `pc-${randomUUID().slice(0, 8)}`) => ({
  customerType: 'INDIVIDUAL',
  platformCustomerId,
  fullName: 'Ceo Person',
  ...(umaAddress ? { umaAddress } : {}),
});

/** Two platforms: A holds a domain of its own, B is the attacker. */
async function aliceAndMallory() {
  const a = await h.platform();
  const b = await h.platform();
  const domain = freshDomain();
  await a.api.patch('/config', { umaDomain: domain }).expect(200);
  return { a, b, domain };
}

describe('a UMA domain belongs to one platform', () => {
  test('B cannot set the domain A holds (in any letter case): 409 UMA_DOMAIN_TAKEN naming neither A nor its data', async () => {
    const { a, b, domain } = await aliceAndMallory();
    for (const claim of [domain, domain.toUpperCase()]) {
      const res = await b.api.patch('/config', { umaDomain: claim }).expect(409);
      expect(res.body).toMatchObject({ code: 'UMA_DOMAIN_TAKEN' });
      expect(JSON.stringify(res.body)).not.toContain(a.platform.id);
      expect(JSON.stringify(res.body)).not.toContain(a.platform.name);
    }
    expect((await b.api.get('/config').expect(200)).body).not.toHaveProperty('umaDomain');
    // Setting one's own domain again is a no-op, not a conflict.
    expect((await a.api.patch('/config', { umaDomain: domain }).expect(200)).body.umaDomain).toBe(domain);
  });

  test('two platforms racing for one domain: exactly one gets it', async () => {
    const [x, y] = [await h.platform(), await h.platform()];
    const domain = freshDomain('race');
    const results = await Promise.all([x.api.patch('/config', { umaDomain: domain }), y.api.patch('/config', { umaDomain: domain })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await h.orm.em.fork().count(Platform, { umaDomain: domain })).toBe(1);
  });

  test('a domain that is not a host name is 400 INVALID_INPUT on umaDomain', async () => {
    const p = await h.platform();
    for (const umaDomain of ['localhost', 'not a domain', 'https://pay.example.com', 'pay.example.com/path', '-bad.example.com']) {
      const res = await p.api.patch('/config', { umaDomain }).expect(400);
      expect(res.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'umaDomain' })] } });
    }
  });

  test("the service's default domains are reserved: no platform can take another's default (or the default root)", async () => {
    const [a, b] = [await h.platform(), await h.platform()];
    for (const umaDomain of [defaultUmaDomain(a.platform.id), 'sandbox.uma.local', `x.${defaultUmaDomain(a.platform.id)}`]) {
      const res = await b.api.patch('/config', { umaDomain }).expect(400);
      expect(res.body).toMatchObject({
        code: 'INVALID_INPUT',
        details: { errors: [expect.objectContaining({ field: 'umaDomain', constraint: expect.objectContaining({ rule: 'reserved' }) })] },
      });
    }
    // Its own default it may name.
    expect((await a.api.patch('/config', { umaDomain: defaultUmaDomain(a.platform.id) }).expect(200)).body.umaDomain).toBe(defaultUmaDomain(a.platform.id));
  });
});

describe("a customer's UMA address is on its platform's domain", () => {
  test('B cannot create $ceo@<A’s domain> (400 on umaAddress); A then can', async () => {
    const { a, b, domain } = await aliceAndMallory();
    const refused = await b.api.post('/customers', person(`$ceo@${domain}`)).expect(400);
    expect(refused.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [expect.objectContaining({ field: 'umaAddress', constraint: expect.objectContaining({ rule: 'domain' }) })] },
    });
    expect(await h.orm.em.fork().count(Customer, { platformId: b.platform.id })).toBe(0);
    const created = await a.api.post('/customers', person(`$ceo@${domain.toUpperCase()}`)).expect(201);
    expect(created.body.umaAddress).toBe(`$ceo@${domain.toUpperCase()}`);
  });

  test('B cannot move a customer onto A’s domain with PATCH either', async () => {
    const { b, domain } = await aliceAndMallory();
    const c = await b.api.post('/customers', person()).expect(201);
    const res = await b.api.patch(`/customers/${c.body.id}`, { customerType: 'INDIVIDUAL', umaAddress: `$ceo@${domain}` }).expect(400);
    expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'umaAddress', constraint: expect.objectContaining({ rule: 'domain' }) })]);
    expect((await b.api.get(`/customers/${c.body.id}`)).body.umaAddress).toBe(c.body.umaAddress);
  });

  test("A's customer creation never answers UMA_ADDRESS_EXISTS because of B's customers (even one stored before domains were owned)", async () => {
    const { a, b, domain } = await aliceAndMallory();
    // A customer of B on A's domain, as data from before this rule could hold.
    await insertCustomer(h.orm, h.masterKey, b.platform.id, { umaAddress: `$ceo@${domain}` });
    const res = await a.api.post('/customers', person(`$CEO@${domain}`));
    expect(res.status).toBe(201);
    // A's own addresses stay unique, whatever the letter case.
    const again = await a.api.post('/customers', person(`$ceo@${domain}`)).expect(409);
    expect(again.body.code).toBe('UMA_ADDRESS_EXISTS');
  });

  test("without a domain of its own, a platform's customers are on its default domain, which no other platform shares", async () => {
    const [x, y] = [await h.platform(), await h.platform()];
    expect(defaultUmaDomain(x.platform.id)).not.toBe(defaultUmaDomain(y.platform.id));
    const generated = await x.api.post('/customers', person(undefined, 'Gen-1')).expect(201);
    expect(generated.body.umaAddress).toMatch(new RegExp(`^\\$gen-1\\.[0-9a-f]{8}@${defaultUmaDomain(x.platform.id).replace(/\./g, '\\.')}$`));
    await x.api.post('/customers', person(`$named@${defaultUmaDomain(x.platform.id)}`)).expect(201);
    const foreign = await y.api.post('/customers', person(`$named@${defaultUmaDomain(x.platform.id)}`)).expect(400);
    expect(foreign.body.details.errors).toEqual([expect.objectContaining({ field: 'umaAddress' })]);
    // The old shared default is no platform's any more.
    await y.api.post('/customers', person('$old@sandbox.uma.local')).expect(400);
  });

  test('with a domain of its own, generated addresses are on it', async () => {
    const { a, domain } = await aliceAndMallory();
    const res = await a.api.post('/customers', person(undefined, 'gen')).expect(201);
    expect(res.body.umaAddress).toMatch(new RegExp(`@${domain.replace(/\./g, '\\.')}$`));
  });
});

describe('changing the domain', () => {
  test('a domain still used by customers (deleted ones too) cannot be left: 409 UMA_DOMAIN_IN_USE; an unused one can, and is free again', async () => {
    const { a, b, domain } = await aliceAndMallory();
    const c = await a.api.post('/customers', person(`$ann@${domain}`)).expect(201);
    await a.api.delete(`/customers/${c.body.id}`).expect(200);
    const next = freshDomain('next');
    const refused = await a.api.patch('/config', { umaDomain: next }).expect(409);
    expect(refused.body.code).toBe('UMA_DOMAIN_IN_USE');
    expect((await a.api.get('/config')).body.umaDomain).toBe(domain);

    const fresh = await h.platform();
    const unused = freshDomain('unused');
    await fresh.api.patch('/config', { umaDomain: unused }).expect(200);
    await fresh.api.patch('/config', { umaDomain: next }).expect(200);
    await b.api.patch('/config', { umaDomain: unused }).expect(200);
  });

  test('a customer written while the domain changes is judged against the domain as committed: no address lands on the domain just left', async () => {
    const p = await h.platform();
    const [old, next] = [freshDomain('old'), freshDomain('next')];
    await p.api.patch('/config', { umaDomain: old }).expect(200);
    // A domain change in flight: committed only after the customer's request has started.
    const change = new PgClient({ connectionString: process.env.DATABASE_URL });
    await change.connect();
    try {
      await change.query('begin');
      await change.query('select 1 from platforms where id = $1 for no key update', [p.platform.id]);
      await change.query('update platforms set uma_domain = $1 where id = $2', [next, p.platform.id]);
      const writing = p.api.post('/customers', person(`$late@${old}`)).then((r) => r);
      await new Promise((r) => setTimeout(r, 1_000));
      await change.query('commit');
      const res = await writing;
      expect(res.status).toBe(400);
      expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'umaAddress', constraint: expect.objectContaining({ rule: 'domain' }) })]);
    } finally {
      await change.end();
    }
    expect(await h.orm.em.fork().count(Customer, { platformId: p.platform.id })).toBe(0);
  });

  test('leaving the default domain for one of its own is allowed: the customers keep their default addresses', async () => {
    const p = await h.platform();
    const before = await p.api.post('/customers', person()).expect(201);
    const domain = freshDomain('own');
    await p.api.patch('/config', { umaDomain: domain }).expect(200);
    expect((await p.api.get(`/customers/${before.body.id}`)).body.umaAddress).toBe(before.body.umaAddress);
    // An unrelated change to that customer is still accepted; a new address must be on the new domain.
    await p.api.patch(`/customers/${before.body.id}`, { customerType: 'INDIVIDUAL', fullName: 'Renamed Person' }).expect(200);
    await p.api.patch(`/customers/${before.body.id}`, { customerType: 'INDIVIDUAL', umaAddress: `$renamed@${defaultUmaDomain(p.platform.id)}` }).expect(400);
    await p.api.patch(`/customers/${before.body.id}`, { customerType: 'INDIVIDUAL', umaAddress: `$renamed@${domain}` }).expect(200);
  });
});

describe('invitations', () => {
  test("are issued only on the platform's own domain: B, refused A's domain, issues none there", async () => {
    const { a, b, domain } = await aliceAndMallory();
    await b.api.patch('/config', { umaDomain: domain }).expect(409);
    const inviter = await b.api.post('/customers', person()).expect(201);
    const refused = await b.api.post('/invitations', { inviterUma: inviter.body.umaAddress }).expect(400);
    expect(refused.body.code).toBe('INVITATIONS_NOT_CONFIGURED');
    expect(await h.orm.em.fork().count(Invitation, { platformId: b.platform.id })).toBe(0);

    const ownInviter = await a.api.post('/customers', person()).expect(201);
    const invitation = await a.api.post('/invitations', { inviterUma: ownInviter.body.umaAddress }).expect(201);
    expect(invitation.body.url).toBe(`https://${domain}/invite/${invitation.body.code}`);
  });
});

describe('addresses kept from before domains were owned', () => {
  test("cannot invite: B's customer still holding an address on A's domain is refused as an inviter", async () => {
    const { b, domain } = await aliceAndMallory();
    await b.api.patch('/config', { umaDomain: freshDomain('bob') }).expect(200);
    const kept = await b.api.post('/customers', person()).expect(201);
    // As the migration left it: an address on a domain another platform holds now.
    await h.orm.em.fork().nativeUpdate(Customer, { id: kept.body.id }, { umaAddress: `$ceo@${domain}` });
    const refused = await b.api.post('/invitations', { inviterUma: `$ceo@${domain}` }).expect(400);
    expect(refused.body.details.errors).toEqual([expect.objectContaining({ field: 'inviterUma', constraint: expect.objectContaining({ rule: 'domain' }) })]);
    expect(await h.orm.em.fork().count(Invitation, { platformId: b.platform.id })).toBe(0);
    // An address on the platform's default domain (kept when it took one of its own) still invites.
    const onDefault = await b.api.post('/customers', person()).expect(201);
    await h.orm.em.fork().nativeUpdate(Customer, { id: onDefault.body.id }, { umaAddress: `$early@${defaultUmaDomain(b.platform.id)}` });
    await b.api.post('/invitations', { inviterUma: `$early@${defaultUmaDomain(b.platform.id)}` }).expect(201);
  });
});

describe('the sandbox platform of `npm start`', () => {
  test('has a UMA domain of its own: invitations work out of the box, on the domain of its customers’ addresses', async () => {
    const em = h.orm.em.fork();
    const platform = await createPlatform(em, { ...DEV_SANDBOX_PLATFORM, webhookEndpoint: h.receiver.url }, { masterKey: h.masterKey });
    expect(platform.umaDomain).toBe(defaultUmaDomain(platform.id));
    const token = await createToken(em, h.masterKey, platform.id, 'SANDBOX');
    const api = new Api(h.app, `Basic ${Buffer.from(`${token.tokenId}:${token.clientSecret}`).toString('base64')}`);
    expect((await api.get('/config').expect(200)).body.umaDomain).toBe(platform.umaDomain);
    const customer = await api.post('/customers', person(undefined, 'sandbox-inviter')).expect(201);
    expect(customer.body.umaAddress.endsWith(`@${platform.umaDomain}`)).toBe(true);
    const invitation = await api.post('/invitations', { inviterUma: customer.body.umaAddress }).expect(201);
    expect(invitation.body.url).toBe(`https://${platform.umaDomain}/invite/${invitation.body.code}`);
  });
});
