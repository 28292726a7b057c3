/** The SQL text of a `pg` `query` call's first argument (a string, or a query config with `text`); '' for anything else. */
export function sqlOf(first: unknown): string {
  if (typeof first === 'string') return first;
  const text = (first as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}
