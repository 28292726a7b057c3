import { eventually } from '../support/eventually';

/**
 * The tests' wait for a state: on a loaded machine a card's issuer answered after the bound, the old
 * wait handed back the PROCESSING card as if it were ACTIVE, and the test failed two steps later with
 * a declined authorization's missing id (a bare 400). The wait must fail itself, naming what it saw.
 */
describe('eventually', () => {
  test('returns the first value that is accepted', async () => {
    let reads = 0;
    await expect(
      eventually(
        async () => ++reads,
        (n) => n === 3,
        5_000,
      ),
    ).resolves.toBe(3);
  });

  test('past its bound it fails, naming the last value read, instead of returning it', async () => {
    const card = { status: 200, body: { id: 'Card:1', state: 'PROCESSING' } };
    await expect(
      eventually(
        async () => card,
        (r) => r.body.state === 'ACTIVE',
        300,
      ),
    ).rejects.toThrow(/not reached within 300 ms; the last value read: \{"status":200,"body":\{"id":"Card:1","state":"PROCESSING"\}\}/);
  });

  test('describes bigints and cuts long values', async () => {
    await expect(
      eventually(
        async () => ({ balance: 5n, pad: 'x'.repeat(3_000) }),
        () => false,
        50,
      ),
    ).rejects.toThrow(/"balance":"5n".*x…$/);
  });
});
