/** Polls `read` until it satisfies `accept` (visibility is eventually consistent) or times out. */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}
