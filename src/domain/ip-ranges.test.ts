import { describe, expect, it } from 'vitest';
import { classifyAddress } from './ip-ranges.js';

const refused = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'CGNAT'],
  ['100.127.255.254', 'CGNAT'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'IETF'],
  ['192.0.2.10', 'documentation'],
  ['192.88.99.1', '6to4'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.200', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::FFFF:10.1.2.3', 'private'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:0:192.168.0.1', 'private'],
  ['::127.0.0.1', 'loopback'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b:1::1', 'NAT64'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:c0a8:0101::1', 'private'],
  ['2001:0:4136:e378::1', 'Teredo'],
  ['2001:db8::1', 'documentation'],
  ['2001:10::1', 'ORCHID'],
  ['100::1', 'discard'],
  ['fc00::1', 'unique local'],
  ['fd12:3456:789a::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['4000::1', 'reserved'],
] as const;

const allowed = [
  '1.1.1.1',
  '8.8.8.8',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.1',
  '169.253.255.255',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4009:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:0808:0808::1',
];

describe('classifyAddress', () => {
  it.each(refused)('refuses %s (%s)', (address, reason) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason.toLowerCase()).toContain(reason.toLowerCase().split(' ')[0]!.toLowerCase());
  });

  it.each(allowed)('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it.each(['', 'localhost', 'example.com', '1.2.3', '1.2.3.4.5', '256.1.1.1', ':::1', '1::2::3', 'gggg::1', '1:2:3:4:5:6:7:8:9'])(
    'refuses %j, which is not an IP address',
    (text) => {
      expect(classifyAddress(text)).toEqual({ allowed: false, reason: 'not an IP address' });
    },
  );
});
