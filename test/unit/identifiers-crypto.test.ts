import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { decodeBase58, decodeBase58Check, encodeBase58, encodeBase58Check } from '../../src/domain/identifiers/base58';
import { bytesToWords, convertBits, decodeBech32, encodeBech32, wordsToBytes } from '../../src/domain/identifiers/bech32';
import { accepted, refused } from '../../src/domain/identifiers/check';
import { checkEvmAddress, toChecksumAddress } from '../../src/domain/identifiers/evm-address';
import { checkBolt12Offer, checkLightningAddress, checkLightningInvoice } from '../../src/domain/identifiers/lightning';
import { checkSolanaAddress, solanaPublicKey } from '../../src/domain/identifiers/solana-address';
import { checkSparkAddress, encodeSparkAddress, sparkIdentityPublicKey } from '../../src/domain/identifiers/spark-address';
import { checkTronAddress, tronAddressFromPublicKey } from '../../src/domain/identifiers/tron-address';
import { checkWalletAddress, isWalletAccountType, WALLET_ADDRESS_FORMATS } from '../../src/domain/identifiers/wallet-addresses';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const fromHex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

/** secp256k1 generator G, the public key of private key 1. */
const G = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';

describe('check helpers', () => {
  it('builds the two outcomes', () => {
    expect(accepted('x')).toEqual({ valid: true, normalized: 'x' });
    expect(refused('No.')).toEqual({ valid: false, reason: 'No.' });
  });
});

describe('Base58', () => {
  // draft-msporny-base58 examples.
  it.each([
    ['Hello World!', '2NEpo7TZRRrLZSi2U'],
    ['The quick brown fox jumps over the lazy dog.', 'USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z'],
  ])('encodes and decodes %j', (text, encoded) => {
    expect(encodeBase58(ascii(text))).toBe(encoded);
    expect(hex(decodeBase58(encoded) as Uint8Array)).toBe(hex(ascii(text)));
  });

  it('maps leading zero bytes to leading 1s', () => {
    expect(encodeBase58(fromHex('0000287fb4cd'))).toBe('11233QC4');
    expect(hex(decodeBase58('11233QC4') as Uint8Array)).toBe('0000287fb4cd');
    expect(encodeBase58(new Uint8Array(0))).toBe('');
    expect(decodeBase58('')).toEqual(new Uint8Array(0));
  });

  it('refuses characters outside the alphabet', () => {
    for (const bad of ['0', 'O', 'I', 'l', '2NEpo7TZ RRrLZSi2U', '+']) expect(decodeBase58(bad)).toBeNull();
  });

  it('decodes Base58Check (a Bitcoin P2PKH address) and refuses a broken checksum', () => {
    const decoded = decodeBase58Check('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
    expect(decoded).toEqual({ ok: true, payload: fromHex('0077bff20c60e522dfaa3350c39b030a5d004e839a') });
    expect(decodeBase58Check('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3')).toEqual({ ok: false, reason: expect.stringContaining('checksum') });
    expect(decodeBase58Check('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0')).toEqual({ ok: false, reason: expect.stringContaining('alphabet') });
    expect(decodeBase58Check('1111')).toEqual({ ok: false, reason: expect.stringContaining('too short') });
  });

  it('encodes Base58Check', () => {
    expect(encodeBase58Check(fromHex('0077bff20c60e522dfaa3350c39b030a5d004e839a'))).toBe('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
    expect(encodeBase58Check(fromHex('007680adec8eabcabac676be9e83854ade0bd22cdb'))).toBe('1BoatSLRHtKNngkdXEeobR76b53LETtpyT');
  });
});

describe('Bech32 and Bech32m (BIP-173, BIP-350 test vectors)', () => {
  const validBech32 = [
    'A12UEL5L',
    'a12uel5l',
    'an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs',
    'abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw',
    'split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w',
    '?1ezyfcl',
  ];
  const validBech32m = [
    'A1LQFN3A',
    'a1lqfn3a',
    'an83characterlonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11sg7hg6',
    'abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx',
    '11llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllludsr8',
    'split1checkupstagehandshakeupstreamerranterredcaperredlc445v',
    '?1v759aa',
  ];

  it.each(validBech32)('accepts %s as Bech32 and re-encodes it', (value) => {
    const decoded = decodeBech32(value);
    expect(decoded).toMatchObject({ ok: true, variant: 'bech32' });
    if (decoded.ok) expect(encodeBech32(decoded.hrp, decoded.words, 'bech32')).toBe(value.toLowerCase());
    expect(decodeBech32(value, { variant: 'bech32m' }).ok).toBe(false);
  });

  it.each(validBech32m)('accepts %s as Bech32m and re-encodes it', (value) => {
    const decoded = decodeBech32(value);
    expect(decoded).toMatchObject({ ok: true, variant: 'bech32m' });
    if (decoded.ok) expect(encodeBech32(decoded.hrp, decoded.words, 'bech32m')).toBe(value.toLowerCase());
    expect(decodeBech32(value, { variant: 'bech32' }).ok).toBe(false);
  });

  it.each([
    ['\x201nwldj5', 'not printable'],
    ['\x7f1axkwrx', 'not printable'],
    ['\x801eym55h', 'not printable'],
    ['an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx', 'longer than 90'],
    ['pzry9x0s0muk', 'no "1" separator'],
    ['1pzry9x0s0muk', 'empty'],
    ['x1b4n0q5v', 'not a Bech32 character'],
    ['li1dgmt3', 'too short'],
    ['de1lg7wt\xff', 'not printable'],
    ['A1G7SGD8', 'checksum'],
    ['10a06t8', 'empty'],
    ['1qzzfhee', 'empty'],
    ['qyrz8wqd2c9m', 'no "1" separator'],
    ['y1b0jsk6g', 'not a Bech32 character'],
    ['lt1igcx5c0', 'not a Bech32 character'],
    ['in1muywd', 'too short'],
    ['mm1crxm3i', 'not a Bech32 character'],
    ['au1s5cgom', 'not a Bech32 character'],
    ['M1VUXWEZ', 'checksum'],
    ['16plkw9', 'empty'],
    ['1p2gdwpf', 'empty'],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', 'mixes upper and lower case'],
  ])('refuses %j', (value, reason) => {
    const decoded = decodeBech32(value);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toContain(reason);
  });

  it('allows long strings only when asked', () => {
    const long = encodeBech32('long', new Array(120).fill(3), 'bech32m');
    expect(decodeBech32(long).ok).toBe(false);
    expect(decodeBech32(long, { allowLong: true })).toMatchObject({ ok: true, variant: 'bech32m', hrp: 'long' });
    expect(decodeBech32(`a1${'q'.repeat(9000)}`, { allowLong: true }).ok).toBe(false);
  });

  it('decodes without a checksum for BOLT12', () => {
    expect(decodeBech32('lno1qqqq', { noChecksum: true })).toEqual({ ok: true, hrp: 'lno', words: [0, 0, 0, 0], variant: null });
    expect(decodeBech32('lno1', { noChecksum: true })).toEqual({ ok: true, hrp: 'lno', words: [], variant: null });
    expect(decodeBech32('lno1b', { noChecksum: true }).ok).toBe(false);
  });

  it('refuses invalid words when encoding', () => {
    expect(() => encodeBech32('a', [32], 'bech32')).toThrow();
  });

  it('converts between bytes and words with BIP-173 padding rules', () => {
    // BIP-350 segwit vector: the witness program of bc1p0xlx…k5jj0 is G's x coordinate.
    const decoded = decodeBech32('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0');
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(hex(wordsToBytes(decoded.words.slice(1)) as Uint8Array)).toBe(G.slice(2));
    // Non-zero padding and padding of 5 bits or more are refused.
    const nonZero = decodeBech32('tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j');
    if (nonZero.ok) expect(wordsToBytes(nonZero.words.slice(1))).toBeNull();
    const tooMuch = decodeBech32('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf');
    if (tooMuch.ok) expect(wordsToBytes(tooMuch.words.slice(1))).toBeNull();
    expect(bytesToWords(fromHex('ff'))).toEqual([31, 28]);
    expect(convertBits([255], 8, 5, false)).toBeNull();
    expect(convertBits([32], 5, 8, true)).toBeNull();
    expect(convertBits([31, 28], 5, 8, false)).toEqual([255]);
  });
});

describe('EVM addresses (EIP-55)', () => {
  // The EIP's own examples.
  const checksummed = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it.each(checksummed)('computes the EIP-55 form of %s', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(toChecksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
    expect(checkEvmAddress(address)).toEqual({ valid: true, normalized: address });
  });

  it('accepts single-case addresses and normalizes them to EIP-55', () => {
    expect(checkEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toEqual({
      valid: true,
      normalized: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    expect(checkEvmAddress('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toEqual({
      valid: true,
      normalized: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
  });

  it.each([
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'EIP-55'],
    ['0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'EIP-55'],
    ['5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'starts with 0x'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA', 'exactly 40'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00', 'exactly 40'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg', 'hex digits'],
    ['0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'starts with 0x'],
  ])('refuses %s', (address, reason) => {
    const check = checkEvmAddress(address);
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.reason).toContain(reason);
  });

  it('throws when asked to checksum something that is not an address', () => {
    expect(() => toChecksumAddress('0x1234')).toThrow();
  });
});

describe('Solana addresses', () => {
  it.each([
    ['11111111111111111111111111111111', '00'.repeat(32)], // System Program
    ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', '06ddf6e1d765a193d9cbe146ceeb79ac1cb485ed5f5b37913a8cf5857eff00a9'], // SPL Token
    ['So11111111111111111111111111111111111111112', '069b8857feab8184fb687f634618c035dac439dc1aeb3b5598a0f00000000001'], // wrapped SOL
  ])('accepts %s', (address, key) => {
    expect(checkSolanaAddress(address)).toEqual({ valid: true, normalized: address });
    expect(hex(solanaPublicKey(address))).toBe(key);
  });

  it('accepts the USDC mint (32 bytes)', () => {
    expect(checkSolanaAddress('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v').valid).toBe(true);
  });

  it.each([
    ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0', 'Base58'],
    ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5Dl', 'Base58'],
    ['1111111111111111111111111111111', '32 to 44'],
    ['zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', '32 bytes'],
    ['0x06ddf6e1d765a193d9cbe146ceeb79ac1cb485ed', 'Base58'],
  ])('refuses %s', (address, reason) => {
    const check = checkSolanaAddress(address);
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.reason).toContain(reason);
    expect(() => solanaPublicKey(address)).toThrow();
  });
});

describe('Tron addresses', () => {
  it.each([
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '41a614f803b6fd780986a42c78ec9c7f77e6ded13c'], // USDT (TRC-20) contract
    ['TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH', null],
  ])('accepts %s', (address, payload) => {
    expect(checkTronAddress(address)).toEqual({ valid: true, normalized: address });
    const decoded = decodeBase58Check(address);
    if (payload && decoded.ok) expect(hex(decoded.payload)).toBe(payload);
  });

  it.each([
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T', 'checksum'],
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6', '34 characters'],
    ['XR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'starts with T'],
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60', 'Base58 alphabet'],
    // A Bitcoin address re-prefixed: valid Base58Check of the wrong payload.
    [encodeBase58Check(fromHex('42a614f803b6fd780986a42c78ec9c7f77e6ded13c')), '0x41'],
  ])('refuses %s', (address, reason) => {
    const check = checkTronAddress(address);
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.reason).toContain(reason);
  });

  it('derives the address of a public key (0x41 and the Ethereum address of the same key)', () => {
    // Private key 0x69…69: its Ethereum address is 0xbe93f9bacbcffc8ee6663f2647917ed7a20a57bb (eth-sig-util vectors).
    const publicKey = secp256k1.getPublicKey(fromHex('69'.repeat(32)), false);
    const address = tronAddressFromPublicKey(publicKey);
    expect(address).toBe(encodeBase58Check(fromHex('41be93f9bacbcffc8ee6663f2647917ed7a20a57bb')));
    expect(tronAddressFromPublicKey(publicKey.subarray(1))).toBe(address);
    expect(checkTronAddress(address).valid).toBe(true);
    expect(() => tronAddressFromPublicKey(secp256k1.getPublicKey(fromHex('69'.repeat(32)), true))).toThrow();
  });
});

describe('Spark addresses', () => {
  // Spark Rust SDK (spark-address tests): the generator G under the mainnet and regtest prefixes
  // the SDK used before the `spark…` ones.
  const legacyMainnet = 'sp1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9ucez8h3s';
  const legacyRegtest = 'sprt1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9ucd5rgc0';
  const mainnet = 'spark1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc489gg2';

  it('encodes an identity key as 0x0a 0x21 ‖ key in Bech32m', () => {
    expect(encodeSparkAddress(fromHex(G))).toBe(mainnet);
    expect(encodeSparkAddress(fromHex(G), 'sparkrt')).toBe('sparkrt1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc8pt5y4');
    const decoded = decodeBech32(mainnet);
    if (decoded.ok) expect(hex(wordsToBytes(decoded.words) as Uint8Array)).toBe(`0a21${G}`);
  });

  it('accepts a mainnet address and reads its identity key', () => {
    expect(checkSparkAddress(mainnet)).toEqual({ valid: true, normalized: mainnet });
    expect(checkSparkAddress(mainnet.toUpperCase())).toEqual({ valid: true, normalized: mainnet });
    expect(hex(sparkIdentityPublicKey(mainnet))).toBe(G);
  });

  it.each(['spark', 'sparkt', 'sparkrt', 'sparks', 'sparkl'] as const)('accepts the %s prefix', (hrp) => {
    const key = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true);
    const address = encodeSparkAddress(key, hrp);
    expect(address.startsWith(`${hrp}1`)).toBe(true);
    expect(checkSparkAddress(address)).toEqual({ valid: true, normalized: address });
    expect(sparkIdentityPublicKey(address)).toEqual(key);
  });

  it('accepts the earlier sp/sprt prefixes and normalizes them to the current ones', () => {
    expect(checkSparkAddress(legacyMainnet)).toEqual({ valid: true, normalized: mainnet });
    expect(checkSparkAddress(legacyRegtest)).toEqual({
      valid: true,
      normalized: 'sparkrt1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc8pt5y4',
    });
    expect(hex(sparkIdentityPublicKey(legacyRegtest))).toBe(G);
  });

  it('refuses the documentation example spark1pgss…dj6mrhu: its checksum is that of a sprt1 (regtest) address', () => {
    // The string carries a valid identity key, but its last six characters are the Bech32m checksum
    // computed under the prefix "sprt"; with "spark" in front the checksum does not match.
    const docExample = 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu';
    expect(checkSparkAddress(docExample)).toEqual({ valid: false, reason: 'Its Bech32 checksum does not match.' });
    const asRegtest = `sprt1${docExample.slice('spark1'.length)}`;
    expect(checkSparkAddress(asRegtest)).toEqual({
      valid: true,
      normalized: encodeSparkAddress(sparkIdentityPublicKey(asRegtest), 'sparkrt'),
    });
    // The same key's mainnet address:
    expect(encodeSparkAddress(sparkIdentityPublicKey(asRegtest))).toBe('spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6d2far8e');
  });

  it('refuses Spark invoices (Spark Rust SDK regtest invoice)', () => {
    const invoice =
      'sprt1pgss9n9jdwnecca27cxfryhasa97xzr6arv8qvn4mu89tpcy5mf6fufjzf6ssqgjzqqe352f0zv8wyvjfjdp9drc3lsj5pnd09xk2mt0xgss9n9jdwnecca27cxfryhasa97xzr6arv8qvn4mu89tpcy5mf6fufj8gxq3ad25mzsvyxq3jkmxqc6yc9zpd3qfcplvq92wnuz3t25djj9rerff338xweffdn69406e24klz53zgpq86qcqsq08';
    expect(checkSparkAddress(invoice)).toEqual({ valid: false, reason: 'This is a Spark invoice, not a Spark address.' });
  });

  const payloadAddress = (payload: string, hrp = 'spark', variant: 'bech32' | 'bech32m' = 'bech32m'): string =>
    encodeBech32(hrp, bytesToWords(fromHex(payload)), variant);

  it.each([
    [mainnet.slice(0, -1) + 'q', 'checksum'],
    [payloadAddress(`0a21${G}`, 'spark', 'bech32'), 'Bech32m'],
    [payloadAddress(`0a21${G}`, 'bc'), 'starts with spark1'],
    [payloadAddress(`0a20${G.slice(2)}`), 'not a valid 33-byte'],
    [payloadAddress(`0a21${G.slice(0, -2)}`), 'truncated'],
    [payloadAddress(`0a21${'04' + G.slice(2)}`), 'not a valid 33-byte'],
    [payloadAddress(`0a21${'02' + 'ff'.repeat(32)}`), 'not a valid 33-byte'],
    [payloadAddress(`0a21${G}0a21${G}`), 'repeats'],
    [payloadAddress(`0a21${G}2000`), 'unexpected field'],
    [payloadAddress(`0a21${G}1a0411111111`), 'Spark invoice'],
    [payloadAddress(''), 'no identity public key'],
    [payloadAddress('0a'), 'truncated'],
    [payloadAddress('ff'), 'not a valid protobuf'],
    [`spark1${'q'.repeat(1100)}`, 'at most 1024'],
  ])('refuses %s', (address, reason) => {
    const check = checkSparkAddress(address);
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.reason).toContain(reason);
    expect(() => sparkIdentityPublicKey(address)).toThrow();
  });

  it('refuses to encode a key that is not a compressed point, or an unknown prefix', () => {
    expect(() => encodeSparkAddress(secp256k1.getPublicKey(fromHex('01'.padStart(64, '0')), false))).toThrow();
    expect(() => encodeSparkAddress(fromHex(G), 'sp' as never)).toThrow();
  });
});

describe('Lightning invoices (BOLT11 examples)', () => {
  const spec = {
    donation:
      'lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql',
    coffee:
      'lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq67gye39hfg3zd8rgc80k32tvy9xk2xunwm5lzexnvpx6fd77en8qaq424dxgt56cag2dpt359k3ssyhetktkpqh24jqnjyw6uqd08sgptq44qu',
    pico: 'lnbc9678785340p1pwmna7lpp5gc3xfm08u9qy06djf8dfflhugl6p7lgza6dsjxq454gxhj9t7a0sd8dgfkx7cmtwd68yetpd5s9xar0wfjn5gpc8qhrsdfq24f5ggrxdaezqsnvda3kkum5wfjkzmfqf3jkgem9wgsyuctwdus9xgrcyqcjcgpzgfskx6eqf9hzqnteypzxz7fzypfhg6trddjhygrcyqezcgpzfysywmm5ypxxjemgw3hxjmn8yptk7untd9hxwg3q2d6xjcmtv4ezq7pqxgsxzmnyyqcjqmt0wfjjq6t5v4khxxqyjw5qcqp2rzjq0gxwkzc8w6323m55m4jyxcjwmy7stt9hwkwe2qxmy8zpsgg7jcuwz87fcqqeuqqqyqqqqlgqqqqn3qq9qn07ytgrxxzad9hc4xt3mawjjt8znfv8xzscs7007v9gh9j569lencxa8xeujzkxs0uamak9aln6ez02uunw6rd2ht2sqe4hz8thcdagpleym0j',
    ignoredFields:
      'lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq2qrqqqfppnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqppnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqpp4qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqhpnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqhp4qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqspnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqsp4qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnp5qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnpkqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq2jxxfsnucm4jf4zwtznpaxphce606fvhvje5x7d4gw7n73994hgs7nteqvenq8a4ml8aqtchv5d9pf7l558889hp4yyrqv6a7zpq9fgpskqhza',
    p2wsh:
      'lnbc20m1pvjluezhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqfp4qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q28j0v3rwgy9pvjnd48ee2pl8xrpxysd5g44td63g6xcjcu003j3qe8878hluqlvl3km8rm92f5stamd3jw763n3hck0ct7p8wwj463cql26ava',
  };

  it.each(Object.entries(spec))('accepts the spec example %s', (_name, invoice) => {
    expect(checkLightningInvoice(invoice)).toEqual({ valid: true, normalized: invoice });
  });

  it('accepts upper case and normalizes to lower case', () => {
    expect(checkLightningInvoice(spec.coffee.toUpperCase())).toEqual({ valid: true, normalized: spec.coffee });
  });

  it.each([
    [
      'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrnt',
      'checksum',
    ],
    [
      'pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrny',
      'separator',
    ],
    [
      'LNBC2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrny',
      'mixes upper and lower case',
    ],
    [
      'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpuaxtrnwngzn3kdzw5hydlzf03qdgm2hdq27cqv3agm2awhz5se903vruatfhq77w3ls4evs3ch9zw97j25emudupq63nyw24cg27h2rspk28uwq',
      'signature is not valid',
    ],
    ['lnbc1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6na6hlh', 'too short'],
    [
      'lnbc2500x1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpujr6jxr9gq9pv6g46y7d20jfkegkg4gljz2ea2a3m9lmvvr95tq2s0kvu70u3axgelz3kyvtp2ywwt0y8hkx2869zq5dll9nelr83zzqqpgl2zg',
      'lnbc, lntb, lntbs or lnbcrt',
    ],
    [
      'lnbc2500000001p1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu7hqtk93pkf7sw55rdv4k9z2vj050rxdr6za9ekfs3nlt5lr89jqpdmxsmlj9urqumg0h9wzpqecw7th56tdms40p2ny9q4ddvjsedzcplva53s',
      'finer than a millisatoshi',
    ],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'starts with ln'],
  ])('refuses the invalid example %#', (invoice, reason) => {
    const check = checkLightningInvoice(invoice);
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.reason).toContain(reason);
  });

  // Invoices built and signed here with the spec's node key, to reach the remaining rules.
  const nodeKey = fromHex('e126f68f7eafcc8b74f54d269fe206be715000f94dac067d1c04a8ca3b2db734');
  const tagged = (tag: number, data: number[]): number[] => [tag, data.length >> 5, data.length & 31, ...data];
  const PAYMENT_HASH = tagged(1, bytesToWords(new Uint8Array(32).fill(7)));
  const TIMESTAMP = [0, 0, 0, 0, 0, 0, 1];
  function invoice(hrp: string, fields: number[], options: { key?: Uint8Array; recovery?: number; truncate?: number } = {}): string {
    const body = [...TIMESTAMP, ...fields];
    const digest = sha256(Uint8Array.from([...ascii(hrp), ...(convertBits(body, 5, 8, true) as number[])]));
    const recovered = secp256k1.sign(digest, options.key ?? nodeKey, { prehash: false, format: 'recovered' });
    const signature = Uint8Array.from([...recovered.subarray(1), options.recovery ?? recovered[0]]);
    const words = [...body, ...bytesToWords(signature)].slice(0, options.truncate);
    return encodeBech32(hrp, words, 'bech32');
  }
  const nodeId = secp256k1.getPublicKey(nodeKey, true);

  it('checks the signature against the payee field n', () => {
    expect(hex(nodeId)).toBe('03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad');
    const withPayee = [...PAYMENT_HASH, ...tagged(19, bytesToWords(nodeId))];
    expect(checkLightningInvoice(invoice('lnbc', withPayee)).valid).toBe(true);
    const otherNode = secp256k1.getPublicKey(fromHex('01'.padStart(64, '0')), true);
    expect(checkLightningInvoice(invoice('lnbc', [...PAYMENT_HASH, ...tagged(19, bytesToWords(otherNode))]))).toEqual({
      valid: false,
      reason: 'The invoice signature does not match its payee node.',
    });
  });

  it.each(['lntb', 'lntbs', 'lnbcrt', 'lnbc1m', 'lntb20u', 'lnbcrt5n', 'lnbc10p'])('accepts the prefix %s', (hrp) => {
    expect(checkLightningInvoice(invoice(hrp, PAYMENT_HASH)).valid).toBe(true);
  });

  it.each([
    ['lnsb', [...PAYMENT_HASH], {}, 'lnbc, lntb'],
    ['lnbcm', [...PAYMENT_HASH], {}, 'no digits'],
    ['lnbc025m', [...PAYMENT_HASH], {}, 'start with 0'],
    ['lnbc', [], {}, 'no payment hash'],
    ['lnbc', tagged(1, bytesToWords(new Uint8Array(31))), {}, 'no payment hash'],
    ['lnbc', [...PAYMENT_HASH, 13], {}, 'truncated tagged field'],
    ['lnbc', [...PAYMENT_HASH, 13, 1, 0], {}, 'longer than the invoice'],
    ['lnbc', [...PAYMENT_HASH], { recovery: 4 }, 'recovery id'],
  ] as const)('refuses %s %#', (hrp, fields, options, reason) => {
    const check = checkLightningInvoice(invoice(hrp, [...fields], options));
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.reason).toContain(reason);
  });
});

describe('BOLT12 offers (bolt12/offers-test.json, format-string-test.json)', () => {
  const complete =
    'lno1pqps7sjqpgtyzm3qv4uxzmtsd3jjqer9wd3hy6tsw35k7msjzfpy7nz5yqcnygrfdej82um5wf5k2uckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxg';

  it.each([
    ['a complete offer', complete, complete],
    ['upper case', complete.toUpperCase(), complete],
    ['+ inside the prefix', `l+${complete.slice(1)}`, complete],
    [
      'several +, with whitespace',
      'lno1pqps7sjqpgt+ yzm3qv4uxzmtsd3jjqer9wd3hy6tsw3+  5k7msjzfpy7nz5yqcn+\nygrfdej82um5wf5k2uckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd+\r\n 5xvxg',
      complete,
    ],
  ])('accepts %s', (_name, offer, normalized) => {
    expect(checkBolt12Offer(offer)).toEqual({ valid: true, normalized });
  });

  it.each([
    'lno1zcss9mk8y3wkklfvevcrszlmu23kfrxh49px20665dqwmn4p72pksese',
    'lno1pgx9getnwss8vetrw3hhyuckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxg',
    'lno1qgsyxjtl6luzd9t3pr62xr7eemp6awnejusgf6gw45q75vcfqqqqqqq2p32x2um5ypmx2cm5dae8x93pqthvwfzadd7jejes8q9lhc4rvjxd022zv5l44g6qah82ru5rdpnpj',
    'lno1qsgqqqqqqqqqqqqqqqqqqqqqqqqqqzsv23jhxapqwejkxar0wfe3vggzamrjghtt05kvkvpcp0a79gmy3nt6jsn98ad2xs8de6sl9qmgvcvs',
    'lno1qcp4256ypqpzwyq2p32x2um5ypmx2cm5dae8x93pqthvwfzadd7jejes8q9lhc4rvjxd022zv5l44g6qah82ru5rdpnpj',
    'lno1pgx9getnwss8vetrw3hhyuc5qqtzzqhwcuj966ma9n9nqwqtl032xeyv6755yeflt235pmww58egx6rxry',
    'lno1pgx9getnwss8vetrw3hhyucvp5yqqqqqqqqqqqqqqqqqqqqkyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxg',
    'lno1pgx9getnwss8vetrw3hhyucs5ypjgef743p5fzqq9nqxh0ah7y87rzv3ud0eleps9kl2d5348hq2k8qzqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgqpqqqqqqqqqqqqqqqqqqqqqqqqqqqzqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqqzq3zyg3zyg3zygs',
    'lno1pgx9getnwss8vetrw3hhyucs3yqqqqqqqqqqqqp2qgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqqyqqqqqqqqqqqqqqqqqqqqqqqqqqqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqqgzyg3zyg3zyg3z93pqthvwfzadd7jejes8q9lhc4rvjxd022zv5l44g6qah82ru5rdpnpj',
    'lno1pgx9getnwss8vetrw3hhyuckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxfppf5x2mrvdamk7unvvs',
    'lno1pgx9getnwss8vetrw3hhyuckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvx078wdv5gg2dpjkcmr0wahhymry',
  ])('accepts the valid vector %#', (offer) => {
    expect(checkBolt12Offer(offer)).toEqual({ valid: true, normalized: offer });
  });

  it.each([
    [`${complete}+`, '+'],
    [`${complete}+ `, '+'],
    [`+${complete}`, '+'],
    [`+ ${complete}`, '+'],
    [`ln++o1${complete.slice(4)}`, '+'],
    ['lnr1qqqq', 'starts with lno1'],
    ['lno1zcssyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszpgz5znzfgdzs', 'out of order'],
    [
      'lno1pgz5znzfgdz3vggzqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpysgr0u2xq4dh3kdevrf4zg6hx8a60jv0gxe0ptgyfc6xkryqqqqqqqq',
      'unknown required field',
    ],
    ['lno1', 'empty'],
    ['lno1pg', 'truncated'],
    ['lno1pt7s', 'truncated'],
    ['lno1pgpq', 'truncated'],
    ['lno1pgpyz', 'truncated'],
    ['lno1qgqszzs9g9xyjs69zcssyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqsz', 'chains'],
    ['lno1qcqcqzs9g9xyjs69zcssyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqsz', 'UTF-8'],
    ['lno1qcplllhapqpq86q2q4qkc6trv5tzzq6muh550qsfva9fdes0ruph7ctk2s8aqq06r4jxj3msc448wzwy9s', 'UTF-8'],
    ['lno1pgqcq93pqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqy', 'UTF-8'],
    ['lno1pgpgqsgkyypqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqs', 'UTF-8'],
    ['lno1pgz5znzfgdz3qqgpzcssyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqsz', 'truncated path'],
    ['lno1pgz5znzfgdz3yqvqzcssyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqsz', 'UTF-8'],
    ['lno1pgz5znzfgdz3yq5qgytzzqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqg', 'UTF-8'],
    ['lno1pgz5znzfgdz3vggzqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvps', 'issuer id'],
    [
      'lno1pgz5znzfgdz3vggzqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgp9qgr0u2xq4dh3kdevrf4zg6hx8a60jv0gxe0ptgyfc6xkryqqqqqqqq',
      'outside the offer ranges',
    ],
    ['lno1pgx9getnwss8vetrw3hhyucvzqzqqqqqqqqqqqqqqqqqqqqqqqqpvggzamrjghtt05kvkvpcp0a79gmy3nt6jsn98ad2xs8de6sl9qmgvcvs', 'feature'],
    ['lno1pqpzwyqkyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxg', 'must have a description'],
    ['lno1qcp4256ypgx9getnwss8vetrw3hhyuckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxg', 'must have an amount'],
    ['lno1pgx9getnwss8vetrw3hhyuc', 'neither an issuer id nor a path'],
    [
      'lno1pgx9getnwss8vetrw3hhyucsespjgef743p5fzqq9nqxh0ah7y87rzv3ud0eleps9kl2d5348hq2k8qzqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgqpqqqqqqqqqqqqqqqqqqqqqqqqqqqzqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqqzq3zyg3zyg3zygszqqqqyqqqqsqqvpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqsq',
      'without hops',
    ],
  ])('refuses the invalid vector %#', (offer, reason) => {
    const check = checkBolt12Offer(offer);
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.reason).toContain(reason);
  });

  it.each([
    'lno1pgz5znzfgdz3vggzqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgp06ae4jsq9qgr0u2xq4dh3kdevrf4zg6hx8a60jv0gxe0ptgyfc6xkryqqqqqqqq',
    'lno1pgz5znzfgdz3vggzqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgp06wu6egp9qgr0u2xq4dh3kdevrf4zg6hx8a60jv0gxe0ptgyfc6xkryqqqqqqqq',
    'lno1pgz5znzfgdz3qqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqsqzcssyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqsz',
  ])('refuses the further invalid vector %#', (offer) => {
    expect(checkBolt12Offer(offer).valid).toBe(false);
  });
});

describe('Lightning addresses (LUD-16)', () => {
  it.each([
    ['satoshi@bitcoin.org', 'satoshi@bitcoin.org'],
    ['Alice.Smith+tips@Wallet.Example.COM', 'alice.smith+tips@wallet.example.com'],
    ['a-b_c@x-y.io', 'a-b_c@x-y.io'],
    ['bob@abcdefghijklmnop.onion', 'bob@abcdefghijklmnop.onion'],
  ])('accepts %s', (address, normalized) => {
    expect(checkLightningAddress(address)).toEqual({ valid: true, normalized });
  });

  it.each([
    ['satoshi', 'user@domain'],
    ['a@b@c.com', 'user@domain'],
    ['@bitcoin.org', 'user part'],
    ['sat oshi@bitcoin.org', 'user part'],
    ['satoshi!@bitcoin.org', 'user part'],
    ['satoshi@localhost', 'dot'],
    ['satoshi@-bitcoin.org', 'host name'],
    ['satoshi@bitcoin..org', 'host name'],
    ['satoshi@bitcoin_org.com', 'host name'],
    ['satoshi@127.0.0.1', 'IP address'],
    [`satoshi@${'a'.repeat(250)}.com`, 'too long'],
  ])('refuses %s', (address, reason) => {
    const check = checkLightningAddress(address);
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.reason).toContain(reason);
  });
});

describe('checkWalletAddress', () => {
  it.each([
    ['BASE_WALLET', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['ETHEREUM_WALLET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['POLYGON_WALLET', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'],
    ['PLASMA_WALLET', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB'],
    ['ARBITRUM_WALLET', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'],
    ['SOLANA_WALLET', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
    ['TRON_WALLET', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    [
      'SPARK_WALLET',
      'spark1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc489gg2',
      'spark1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc489gg2',
    ],
  ])('checks a %s address', (type, address, normalized) => {
    expect(checkWalletAddress(type, address)).toEqual({ valid: true, normalized });
  });

  it('uses the chain of the account type', () => {
    expect(checkWalletAddress('SOLANA_WALLET', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t').valid).toBe(false);
    expect(checkWalletAddress('TRON_WALLET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed').valid).toBe(false);
    expect(checkWalletAddress('ETHEREUM_WALLET', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD').valid).toBe(false);
  });

  it('refuses account types that are not wallets', () => {
    expect(checkWalletAddress('IBAN', 'DE89370400440532013000')).toEqual({ valid: false, reason: 'IBAN is not a wallet account type.' });
    expect(checkWalletAddress('toString', 'x').valid).toBe(false);
  });

  it('lists the wallet types', () => {
    expect(Object.keys(WALLET_ADDRESS_FORMATS).sort()).toEqual([
      'ARBITRUM_WALLET',
      'BASE_WALLET',
      'ETHEREUM_WALLET',
      'PLASMA_WALLET',
      'POLYGON_WALLET',
      'SOLANA_WALLET',
      'SPARK_WALLET',
      'TRON_WALLET',
    ]);
    expect(isWalletAccountType('SPARK_WALLET')).toBe(true);
    expect(isWalletAccountType('constructor')).toBe(false);
  });
});
