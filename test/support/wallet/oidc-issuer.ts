import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/**
 * A local OpenID provider: an ES256 key pair, tokens minted with jose, and its JWKS served over
 * HTTP (`start()`) or given inline (`jwks()`), so the service's production path verifies real
 * issuer signatures.
 */
export class LocalOidcIssuer {
  private server?: Server;
  private keys?: { privateKey: CryptoKey; jwk: JWK };
  jwksUrl = '';

  constructor(
    readonly issuer = 'https://issuer.test.example',
    readonly audience = 'wallet-app-client-id',
  ) {}

  async keyPair() {
    if (!this.keys) {
      const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
      this.keys = { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' } };
    }
    return this.keys;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.keyPair()).jwk] };
  }

  /** Serves the JWKS on a loopback port. */
  async start(): Promise<string> {
    const body = JSON.stringify(await this.jwks());
    this.server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.jwksUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/jwks`;
    return this.jwksUrl;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /**
   * A signed ID token: `sub`, `aud`, `iat` now and `exp` in ten minutes unless `claims` says
   * otherwise (undefined removes a claim); `signingKey` signs with another key (a forger's).
   */
  async token(claims: Record<string, unknown> = {}, options: { signingKey?: CryptoKey; nowSeconds?: number } = {}): Promise<string> {
    const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = {
      iss: this.issuer,
      aud: this.audience,
      sub: 'user-123',
      email: 'user@example.com',
      iat: now,
      exp: now + 600,
      ...claims,
    };
    for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
    return new SignJWT(payload as JWTPayload)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'JWT' })
      .sign(options.signingKey ?? (await this.keyPair()).privateKey);
  }
}
