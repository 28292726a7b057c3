import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import {
  addressCategory,
  addressRefusal,
  endpointRefusal,
  DESTINATION_REFUSED,
  type DestinationRules,
} from '../../src/contexts/webhooks/domain/destination-policy';
import { allowedAddresses, DestinationRefusedError } from '../../activities/webhooks/guarded-connector';
import { createHttpWebhookSender, NO_ANSWER, RESPONSE_BODY_CAP } from '../../activities/webhooks/webhook-sender';

const production: DestinationRules = { environment: 'PRODUCTION', allowLoopback: true };
const sandbox: DestinationRules = { environment: 'SANDBOX', allowLoopback: false };
const sandboxLoopback: DestinationRules = { environment: 'SANDBOX', allowLoopback: true };

describe('address categories', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['2002:0a00:0001::1', 'private'],
    ['64:ff9b:1::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['100.64.0.1', 'sharedCgnat'],
    ['100.127.255.255', 'sharedCgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378::1', 'reserved'],
    ['not an address', 'reserved'],
    ['8.8.8.8', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
  ])('%s is %s', (address, category) => {
    expect(addressCategory(address)).toBe(category);
  });

  test('loopback is allowed only for the sandbox, and only when the operator allows it', () => {
    expect(addressRefusal('127.0.0.1', sandboxLoopback)).toBeNull();
    expect(addressRefusal('::1', sandboxLoopback)).toBeNull();
    expect(addressRefusal('127.0.0.1', sandbox)).not.toBeNull();
    expect(addressRefusal('127.0.0.1', production)).not.toBeNull();
    for (const address of ['10.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', 'fd00::1']) expect(addressRefusal(address, sandboxLoopback)).not.toBeNull();
    expect(addressRefusal('8.8.8.8', production)).toBeNull();
  });
});

describe('endpoint URLs (when set)', () => {
  test.each([
    'http://127.0.0.1:8080/hook',
    'http://2130706433:8080/',
    'http://0x7f000001:8080/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://[::1]:8080/',
    'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://localhost:3000/',
    'http://api.localhost/',
    'http://example.com/hook',
  ])('production refuses %s', (url) => {
    expect(endpointRefusal(url, production)).not.toBeNull();
  });

  test.each([
    'https://127.0.0.1/',
    'https://2130706433/',
    'https://[::ffff:7f00:1]/',
    'https://10.0.0.1/',
    'https://[fd00::1]/',
    'https://100.64.1.1/',
    'https://localhost/',
    'https://user:pw@example.com/',
  ])('production refuses %s even over https', (url) => {
    expect(endpointRefusal(url, production)).not.toBeNull();
  });

  test('production accepts a public https URL; the sandbox also http', () => {
    expect(endpointRefusal('https://hooks.example.com/payments', production)).toBeNull();
    expect(endpointRefusal('https://8.8.8.8/', production)).toBeNull();
    expect(endpointRefusal('http://hooks.example.com/payments', sandbox)).toBeNull();
  });

  test('the sandbox takes loopback receivers only with the operator setting, never private ranges', () => {
    expect(endpointRefusal('http://127.0.0.1:4000/hook', sandbox)).not.toBeNull();
    expect(endpointRefusal('http://localhost:4000/hook', sandbox)).not.toBeNull();
    expect(endpointRefusal('http://127.0.0.1:4000/hook', sandboxLoopback)).toBeNull();
    expect(endpointRefusal('http://localhost:4000/hook', sandboxLoopback)).toBeNull();
    expect(endpointRefusal('http://[::1]:4000/hook', sandboxLoopback)).toBeNull();
    for (const url of ['http://10.0.0.1/', 'http://192.168.0.10/', 'http://169.254.169.254/', 'http://0.0.0.0:4000/', 'http://[fe80::1]/'])
      expect(endpointRefusal(url, sandboxLoopback)).not.toBeNull();
  });
});

describe('the address connected to (every connection)', () => {
  const resolving = (addresses: string[]) => async () => addresses;

  test('a host name is resolved once and every address judged: one refused address refuses it', async () => {
    await expect(allowedAddresses('hooks.example.com', production, resolving(['2606:2800:220:1::', '93.184.216.34']))).resolves.toEqual([
      '2606:2800:220:1::',
      '93.184.216.34',
    ]);
    await expect(allowedAddresses('rebind.example.com', production, resolving(['127.0.0.1']))).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(allowedAddresses('mixed.example.com', production, resolving(['93.184.216.34', '10.0.0.1']))).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(allowedAddresses('v6.example.com', production, resolving(['::ffff:169.254.169.254']))).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(allowedAddresses('none.example.com', production, resolving([]))).rejects.toBeInstanceOf(DestinationRefusedError);
  });

  test('an address literal is judged without resolving', async () => {
    const resolve = jest.fn(resolving(['8.8.8.8']));
    await expect(allowedAddresses('127.0.0.1', production, resolve)).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(allowedAddresses('[::1]', production, resolve)).rejects.toBeInstanceOf(DestinationRefusedError);
    expect(resolve).not.toHaveBeenCalled();
  });
});

describe('the HTTP sender', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      req.on('end', () => res.writeHead(500).end('x'.repeat(10_000)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('production never connects to loopback, in any spelling, nor through a name resolving to it', async () => {
    const sender = createHttpWebhookSender({ allowLoopback: true, resolve: async () => ['127.0.0.1'] });
    const before = hits;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://rebind.example.com:${port}/`,
    ]) {
      expect(await sender.post(url, '{}', {}, 2_000, 'PRODUCTION')).toEqual({ status: null, body: '', error: DESTINATION_REFUSED });
    }
    expect(hits).toBe(before);
  });

  test('production refuses a plain-http endpoint at delivery too, before connecting (one stored before the policy)', async () => {
    // Every address allowed, so that only the URL's own rules can refuse it.
    const sender = createHttpWebhookSender({ policy: () => null, resolve: async () => ['127.0.0.1'] });
    const before = hits;
    expect(await sender.post(`http://receiver.example.com:${port}/`, '{}', {}, 2_000, 'PRODUCTION')).toEqual({
      status: null,
      body: '',
      error: DESTINATION_REFUSED,
    });
    expect(await sender.post(`http://user:pass@receiver.example.com:${port}/`, '{}', {}, 2_000, 'SANDBOX')).toEqual({
      status: null,
      body: '',
      error: DESTINATION_REFUSED,
    });
    expect(hits).toBe(before);
    expect((await sender.post(`http://receiver.example.com:${port}/`, '{}', {}, 2_000, 'SANDBOX')).status).toBe(500);
  });

  test('the sandbox reaches a loopback receiver only with the operator setting; answers are capped', async () => {
    const strict = createHttpWebhookSender();
    expect(await strict.post(`http://127.0.0.1:${port}/`, '{}', {}, 2_000, 'SANDBOX')).toEqual({ status: null, body: '', error: DESTINATION_REFUSED });
    const local = createHttpWebhookSender({ allowLoopback: true, resolve: async () => ['127.0.0.1'] });
    const res = await local.post(`http://receiver.example.com:${port}/`, '{}', {}, 2_000, 'SANDBOX');
    expect(res.status).toBe(500);
    expect(res.body.length).toBe(RESPONSE_BODY_CAP);
  });

  test('the allowed addresses are tried in turn: one that does not answer does not stop the delivery', async () => {
    const local = createHttpWebhookSender({ allowLoopback: true, resolve: async () => ['::1', '127.0.0.1'] });
    // The receiver listens on 127.0.0.1 only: ::1 refuses the connection (or has no IPv6 at all).
    expect((await local.post(`http://dual.example.com:${port}/`, '{}', {}, 2_000, 'SANDBOX')).status).toBe(500);
  });

  test('connection failures are reported in one vague way (no port scanning)', async () => {
    const local = createHttpWebhookSender({ allowLoopback: true });
    expect(await local.post('http://127.0.0.1:9/', '{}', {}, 2_000, 'SANDBOX')).toEqual({ status: null, body: '', error: NO_ANSWER });
  });
});

// A self-signed certificate for receiver.test only (test fixture, valid until 2126).
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBojCCAUegAwIBAgIUcAVNR1ZKekBH128kUrp3hO8d8MEwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNcmVjZWl2ZXIudGVzdDAgFw0yNjExMjYwMDA0NTdaGA8yMTI2
MTEwMjAwMDQ1N1owGDEWMBQGA1UEAwwNcmVjZWl2ZXIudGVzdDBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABC2OnoYlam/A+aGPxjm7NwG/XqGwDbA2SPMZ2S3gmNJy
MzWhGXaqYjzcsGLVPeGJ/e8LDxSsdvowGXYrT3G3DaKjbTBrMB0GA1UdDgQWBBTU
rRgSZMiw2B7/5WQXPgAT93AWOzAfBgNVHSMEGDAWgBTUrRgSZMiw2B7/5WQXPgAT
93AWOzAPBgNVHRMBAf8EBTADAQH/MBgGA1UdEQQRMA+CDXJlY2VpdmVyLnRlc3Qw
CgYIKoZIzj0EAwIDSQAwRgIhAO+dr/fxu8iNNIBSZKlV+o2epIALbJSFP93ZmgB+
AsmDAiEA9wJddwpiCkmx1gGSXl8BGgvmvoNKNLznen88MhATlJw=
-----END CERTIFICATE-----`;
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgyskMMmpSZrj0ohTW
tw3QC7yCFh61xaZ2OfmvGmZPbruhRANCAAQtjp6GJWpvwPmhj8Y5uzcBv16hsA2w
NkjzGdkt4JjScjM1oRl2qmI83LBi1T3hif3vCw8UrHb6MBl2K09xtw2i
-----END PRIVATE KEY-----`;

describe('https through the judged address', () => {
  test("the connection goes to the judged address while TLS names and checks the URL's host", async () => {
    const names: string[] = [];
    const server = createTlsServer(
      {
        cert: TEST_CERT,
        key: TEST_KEY,
        SNICallback: (name, done) => {
          names.push(name);
          done(null, undefined);
        },
      },
      (req, res) => {
        req.resume();
        req.on('end', () => res.end('hello'));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const sender = createHttpWebhookSender({ allowLoopback: true, resolve: async () => ['127.0.0.1'], ca: TEST_CERT });
      expect(await sender.post(`https://receiver.test:${port}/hook`, '{}', {}, 3_000, 'SANDBOX')).toEqual({ status: 200, body: 'hello' });
      // A name the certificate does not cover fails its check, though the address is the same.
      expect((await sender.post(`https://other.test:${port}/hook`, '{}', {}, 3_000, 'SANDBOX')).status).toBeNull();
      expect(names).toEqual(['receiver.test', 'other.test']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
