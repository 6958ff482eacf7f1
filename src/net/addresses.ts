import net from 'node:net';

/**
 * Which IP addresses the service may call out to. Every address a URL's host resolves to is
 * classified here before any connection is made (src/net/outbound.ts).
 *
 * The classification reads the address's bytes: node:net's `BlockList` can match subnets but
 * neither names the range nor exposes the IPv4 address embedded in IPv4-mapped, NAT64 and 6to4
 * forms, which must be judged as that IPv4 address. `net.isIP` validates the text first, so the
 * small parser below only ever sees well-formed addresses; no address library is needed.
 */

/** `public`: may be called; `local`: only with `allowPrivate`; `never`: refused whatever the settings. */
export type AddressUse = 'public' | 'local' | 'never';

export interface AddressClass {
  use: AddressUse;
  /** The range in words, for the refusal ("a private address"); empty for public addresses. */
  what: string;
  /** The IPv4 address an IPv6 form carries (mapped, NAT64, 6to4), which decided the class. */
  embedded?: string;
}

interface Range {
  bytes: number[];
  bits: number;
  use: Exclude<AddressUse, 'public'>;
  what: string;
}

/**
 * Cloud metadata services: instance credentials sit behind them, so they stay refused even with
 * `allowPrivate` (AWS/GCP/Azure/OpenStack 169.254.169.254, AWS ECS 169.254.170.2, AWS IPv6
 * fd00:ec2::254, Alibaba 100.100.100.200, Azure WireServer 168.63.129.16).
 */
const METADATA_ADDRESSES = ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '168.63.129.16'];

const PRIVATE = 'a private address';
const LOOPBACK = 'a loopback address';
const LINK_LOCAL = 'a link-local address';
const DOCUMENTATION = 'a documentation address';

/** First match wins, so narrower ranges come before the ranges that hold them. */
const IPV4_RANGES: Range[] = [
  range('255.255.255.255/32', 'never', 'the broadcast address'),
  range('0.0.0.0/8', 'never', 'an unspecified ("this network") address'),
  range('10.0.0.0/8', 'local', PRIVATE),
  range('100.64.0.0/10', 'local', 'a carrier-grade NAT (shared) address'),
  range('127.0.0.0/8', 'local', LOOPBACK),
  range('169.254.0.0/16', 'local', LINK_LOCAL),
  range('172.16.0.0/12', 'local', PRIVATE),
  range('192.0.0.0/24', 'never', 'an IETF special-purpose address'),
  range('192.0.2.0/24', 'never', DOCUMENTATION),
  range('192.88.99.0/24', 'never', 'a 6to4 relay address'),
  range('192.168.0.0/16', 'local', PRIVATE),
  range('198.18.0.0/15', 'never', 'a benchmarking address'),
  range('198.51.100.0/24', 'never', DOCUMENTATION),
  range('203.0.113.0/24', 'never', DOCUMENTATION),
  range('224.0.0.0/4', 'never', 'a multicast address'),
  range('240.0.0.0/4', 'never', 'a reserved address'),
];

/** IPv6 forms that carry an IPv4 address: judged as that address. `at` is the byte it starts at. */
const EMBEDDING_RANGES: { range: Range; at: number }[] = [
  { range: range('::ffff:0:0/96', 'never', 'IPv4-mapped'), at: 12 },
  { range: range('64:ff9b::/96', 'never', 'NAT64'), at: 12 },
  { range: range('2002::/16', 'never', '6to4'), at: 2 },
];

const IPV6_RANGES: Range[] = [
  range('::/128', 'never', 'the unspecified address'),
  range('::1/128', 'local', LOOPBACK),
  range('::/96', 'never', 'an IPv4-compatible address (deprecated)'),
  range('64:ff9b:1::/48', 'local', 'a local-use NAT64 address'),
  range('100::/64', 'never', 'a discard-only address'),
  range('2001:db8::/32', 'never', DOCUMENTATION),
  range('2001::/32', 'never', 'a Teredo tunnel address'),
  range('2001::/23', 'never', 'an IETF special-purpose address'),
  range('fc00::/7', 'local', 'a private (unique local) address'),
  range('fe80::/10', 'local', LINK_LOCAL),
  range('fec0::/10', 'local', 'a site-local address (deprecated)'),
  range('ff00::/8', 'never', 'a multicast address'),
];

const METADATA = new Set(METADATA_ADDRESSES.map(canonicalAddress));

/**
 * How `address` (an IPv4 or IPv6 address, an IPv6 zone allowed) may be used as a destination.
 * @throws TypeError when `address` is not an IP address.
 */
export function classifyAddress(address: string): AddressClass {
  const bytes = addressBytes(address);
  if (!bytes) throw new TypeError(`not an IP address: ${address}`);
  if (bytes.length === 16) {
    const embedding = EMBEDDING_RANGES.find((e) => inRange(bytes, e.range));
    if (embedding) {
      const embedded = bytes.slice(embedding.at, embedding.at + 4).join('.');
      return { ...classifyAddress(embedded), embedded };
    }
  }
  if (METADATA.has(canonicalAddress(address))) return { use: 'never', what: 'a cloud metadata address' };
  const found = (bytes.length === 4 ? IPV4_RANGES : IPV6_RANGES).find((r) => inRange(bytes, r));
  return found ? { use: found.use, what: found.what } : { use: 'public', what: '' };
}

/**
 * One spelling per address, to compare addresses: IPv6 compressed and lower-case as the WHATWG
 * URL writes it, without a zone; an IPv4-mapped IPv6 address as its IPv4 address.
 * @throws TypeError when `address` is not an IP address.
 */
export function canonicalAddress(address: string): string {
  const bytes = addressBytes(address);
  if (!bytes) throw new TypeError(`not an IP address: ${address}`);
  if (bytes.length === 4) return bytes.join('.');
  if (inRange(bytes, EMBEDDING_RANGES[0].range)) return bytes.slice(12).join('.');
  return new URL(`http://[${withoutZone(address)}]/`).hostname.slice(1, -1);
}

/** Whether `address` is in 127.0.0.0/8 or is ::1 (an IPv4-mapped form counts as its IPv4 address). */
export const isLoopbackAddress = (address: string) => {
  const canonical = canonicalAddress(address);
  return canonical === '::1' || canonical.startsWith('127.');
};

/** Whether `text` is an IP address (an IPv6 zone allowed). */
export const isIpAddress = (text: string) => net.isIP(withoutZone(text)) !== 0;

function withoutZone(address: string): string {
  return address.replace(/%.*$/, '');
}

/** The 4 or 16 bytes of an address; undefined when `text` is not one. */
function addressBytes(text: string): number[] | undefined {
  const address = withoutZone(text);
  const version = net.isIP(address);
  if (version === 4) return address.split('.').map(Number);
  if (version !== 6) return undefined;
  // A dotted IPv4 tail stands for the last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  const hex = dotted
    ? address.slice(0, dotted.index) +
      dotted[1]
        .split('.')
        .map(Number)
        .reduce((groups, byte, i) => groups + (i === 2 ? ':' : '') + byte.toString(16).padStart(2, '0'), '')
    : address;
  const [head, tail] = hex.includes('::') ? hex.split('::') : [hex, undefined];
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const groups =
    tail === undefined
      ? groupsOf(head)
      : [...groupsOf(head), ...Array<string>(8 - groupsOf(head).length - groupsOf(tail).length).fill('0'), ...groupsOf(tail)];
  return groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

function range(cidr: string, use: Range['use'], what: string): Range {
  const [address, bits] = cidr.split('/');
  return { bytes: addressBytes(address)!, bits: Number(bits), use, what };
}

function inRange(bytes: number[], r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  for (let bit = 0; bit < r.bits; bit += 8) {
    const mask = r.bits - bit >= 8 ? 0xff : (0xff << (8 - (r.bits - bit))) & 0xff;
    if ((bytes[bit / 8] & mask) !== (r.bytes[bit / 8] & mask)) return false;
  }
  return true;
}
