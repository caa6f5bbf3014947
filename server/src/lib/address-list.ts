// Lists of network addresses as TRUST_PROXY of the 云文档 server names them: addresses,
// CIDR ranges (10.0.0.0/8, fd00::/8), address/netmask pairs (10.0.0.0/255.0.0.0) and the
// names loopback, linklocal and uniquelocal, separated by commas. The same forms Fastify's
// trustProxy (proxy-addr) accepts, so one value means the same thing to both.
import net from 'node:net';

const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** `::ffff:10.1.2.3` (an IPv4 peer of a dual-stack socket) as `10.1.2.3`; anything else unchanged. */
export function plainAddress(address: string): string {
  const m = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return m ? m[1] : address;
}

/** The prefix length of a dotted IPv4 netmask (255.255.0.0 → 16), or null when it is not one. */
function maskBits(mask: string): number | null {
  if (!net.isIPv4(mask)) return null;
  const bits = mask.split('.').map((part) => Number(part).toString(2).padStart(8, '0')).join('');
  return /^1*0*$/.test(bits) ? bits.replace(/0+$/, '').length : null;
}

function addEntry(list: net.BlockList, entry: string): boolean {
  const named = NAMED[entry.toLowerCase()];
  if (named) return named.every((e) => addEntry(list, e));
  const slash = entry.indexOf('/');
  const address = plainAddress(slash === -1 ? entry : entry.slice(0, slash));
  const family = net.isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (slash === -1) {
    list.addAddress(address, type);
    return true;
  }
  const suffix = entry.slice(slash + 1);
  const prefix: number | null = /^\d{1,3}$/.test(suffix) ? Number(suffix) : family === 4 ? maskBits(suffix) : null;
  if (prefix === null || prefix > (family === 4 ? 32 : 128)) return false;
  list.addSubnet(address, prefix, type);
  return true;
}

/**
 * A matcher for a comma-separated address list, or null when an entry is not an address, a
 * range or one of the names.
 */
export function parseAddressList(text: string): ((address: string) => boolean) | null {
  const entries = text.split(',').map((e) => e.trim()).filter(Boolean);
  if (!entries.length) return null;
  const list = new net.BlockList();
  for (const entry of entries) if (!addEntry(list, entry)) return null;
  return (address: string) => {
    const plain = plainAddress(address);
    const family = net.isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}
