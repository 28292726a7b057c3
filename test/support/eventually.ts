/**
 * Polls `read` until it satisfies `accept` (visibility and workflows are eventually consistent).
 * Past the bound it fails, naming the last value it read: a test that goes on with a state it
 * did not get fails later for a reason that is not the real one (a card still PROCESSING made an
 * authorization declined, and the next step a bare 400). The bound is no sleep: a passing wait
 * returns as soon as the state is there, so it is generous for a loaded machine.
 */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms; the last value read: ${describe(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A short description of what was read: an HTTP answer as its status and body, anything else as JSON. */
function describe(value: unknown): string {
  const shown =
    value && typeof value === 'object' && 'status' in value && 'body' in value ? { status: (value as { status: unknown }).status, body: value.body } : value;
  const text = JSON.stringify(shown, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(shown);
  return text.length > 1_500 ? `${text.slice(0, 1_500)}…` : text;
}
