/**
 * A route's path as a pattern over decoded request paths (`%2F` inside a segment stays encoded).
 * With `ids: 'strict'`, a parameter of a route whose parameters are resource ids
 * (`<Type>:<uuid>`, as mountRoute requires) matches only a segment with a colon, so a literal
 * segment is never read as an id; with `ids: 'any'` it matches any segment.
 */
export function routePattern(route: { path: string; idParams?: boolean }, ids: 'strict' | 'any' = 'strict'): RegExp {
  const pattern = route.path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? (route.idParams && ids === 'strict' ? '[^/:]+:[^/]*' : '[^/]+') : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

/** One decoded path segment, as Express decodes a parameter; a `/` inside it stays `%2F`. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment).replace(/\//g, '%2F');
  } catch {
    return segment;
  }
}
