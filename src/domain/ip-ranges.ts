/**
 * Which IP addresses an outbound request (webhook delivery) may reach: only public unicast addresses.
 * Refused: unspecified, loopback, private (RFC 1918, IPv6 unique local), link-local, CGNAT (100.64/10),
 * multicast, broadcast, reserved and documentation ranges, benchmarking, 6to4 relay anycast, and every
 * IPv6 form that embeds an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) when that address is
 * refused. Pure: the caller resolves the host name (every address) and asks about each.
 */
import { isIP } from 'node:net';

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

type V4Range = [base: number, bits: number, reason: string];

const v4 = (dotted: string): number => dotted.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);

const V4_REFUSED: V4Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified ("this network")'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'shared (CGNAT)'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'IETF protocol assignments'],
  [v4('192.0.2.0'), 24, 'documentation'],
  [v4('192.88.99.0'), 24, '6to4 relay anycast'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'benchmarking'],
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved (and broadcast)'],
];

function inV4Range(address: number, [base, bits]: V4Range): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(address / size) === Math.floor(base / size);
}

function classifyV4(address: number): AddressVerdict {
  const range = V4_REFUSED.find((r) => inV4Range(address, r));
  return range ? { allowed: false, reason: range[2] } : { allowed: true };
}

/** An IPv6 address as 8 16-bit groups (undefined when it does not parse). */
function parseV6(text: string): number[] | undefined {
  let address = text.toLowerCase();
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) becomes two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    if (isIP(dotted[2]!) !== 4) return undefined;
    const n = v4(dotted[2]!);
    address = `${dotted[1]}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => parseInt(g, 16));
}

const embeddedV4 = (g: number[], at: number) => g[at]! * 65536 + g[at + 1]!;

function classifyV6(g: number[]): AddressVerdict {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g.every((x) => x === 0)) return { allowed: false, reason: 'unspecified' };
  if (zeroUpTo(7) && g[7] === 1) return { allowed: false, reason: 'loopback' };
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), ::a.b.c.d (compatible, deprecated): the IPv4 address decides.
  if (zeroUpTo(5) && g[5] === 0xffff) return embedded(classifyV4(embeddedV4(g, 6)));
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return embedded(classifyV4(embeddedV4(g, 6)));
  if (zeroUpTo(6)) return embedded(classifyV4(embeddedV4(g, 6)));
  // NAT64 (64:ff9b::/96 well-known, 64:ff9b:1::/48 local-use).
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    if (g[2] === 1) return { allowed: false, reason: 'NAT64 local-use' };
    if (g.slice(2, 6).every((x) => x === 0)) return embedded(classifyV4(embeddedV4(g, 6)));
  }
  const first = g[0]!;
  if (first === 0x2002) return embedded(classifyV4(embeddedV4(g, 1))); // 6to4
  if (first === 0x2001 && g[1] === 0) return { allowed: false, reason: 'Teredo' };
  if (first === 0x2001 && g[1] === 0x0db8) return { allowed: false, reason: 'documentation' };
  if (first === 0x2001 && g[1]! >= 0x0010 && g[1]! <= 0x001f) return { allowed: false, reason: 'ORCHID' };
  if (first === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return { allowed: false, reason: 'discard-only' };
  if ((first & 0xfe00) === 0xfc00) return { allowed: false, reason: 'private (unique local)' };
  if ((first & 0xffc0) === 0xfe80) return { allowed: false, reason: 'link-local' };
  if ((first & 0xffc0) === 0xfec0) return { allowed: false, reason: 'site-local (deprecated)' };
  if ((first & 0xff00) === 0xff00) return { allowed: false, reason: 'multicast' };
  // Only global unicast (2000::/3) is routable on the internet.
  if ((first & 0xe000) !== 0x2000) return { allowed: false, reason: 'reserved' };
  return { allowed: true };
}

const embedded = (verdict: AddressVerdict): AddressVerdict =>
  verdict.allowed ? verdict : { allowed: false, reason: `IPv4 embedded in IPv6: ${verdict.reason}` };

/** Whether an outbound request may reach `address` (an IPv4 or IPv6 literal); anything else is refused. */
export function classifyAddress(address: string): AddressVerdict {
  const family = isIP(address.includes('%') ? address.slice(0, address.indexOf('%')) : address);
  if (family === 4) return classifyV4(v4(address));
  if (family === 6) {
    const groups = parseV6(address);
    return groups ? classifyV6(groups) : { allowed: false, reason: 'not an IP address' };
  }
  return { allowed: false, reason: 'not an IP address' };
}
