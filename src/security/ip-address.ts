/** The 4 bytes of a dotted IPv4 address. */
export function ipv4Bytes(text: string): number[] {
  return text.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address in any valid textual form (with `::`, a dotted IPv4 tail or a zone id). */
export function ipv6Bytes(text: string): number[] {
  const address = text.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  let head = address;
  let tail: number[] = [];
  if (dotted) {
    tail = ipv4Bytes(dotted[1]!);
    head = address.slice(0, -dotted[1]!.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const leftGroups = groupsOf(left!);
  const rightGroups = right === undefined ? [] : groupsOf(right);
  const missing = 8 - tail.length / 2 - leftGroups.length - rightGroups.length;
  const groups = [...leftGroups, ...Array<number>(right === undefined ? 0 : missing).fill(0), ...rightGroups];
  return [...groups.flatMap((g) => [g >> 8, g & 0xff]), ...tail];
}
