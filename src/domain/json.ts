declare global {
  interface JSON {
    /** Node 21+: a value JSON.stringify writes verbatim, used to emit bigint amounts exactly. */
    rawJSON(text: string): unknown;
  }
}

/** JSON text of a value whose amounts are bigint: written as plain JSON integers, never rounded. */
export function stringifyWithBigInt(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v));
}
