/**
 * A total order on route paths in which a literal segment always comes before a parameter at
 * the same position, so Express (first match wins) never reads `/customers/internal-accounts`
 * as `/customers/:customerId`, whatever order the contexts declare their routes in.
 */
export function byPathSpecificity(a: { path: string }, b: { path: string }): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
    const x = sa[i];
    const y = sb[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const px = x.startsWith(':');
    const py = y.startsWith(':');
    if (px !== py) return px ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return 0;
}
