// Which addresses webhooks may not reach by default (issue 36 follow-up): the server's own network in every
// spelling an attacker could pick (IPv4-mapped, IPv4-compatible and IPv4-translated IPv6, NAT64, 6to4, Teredo,
// decimal or hex IPv4 in a URL), and the special-purpose ranges no receiver lives on (documentation,
// benchmarking, discard), while public addresses, and names (checked when they are resolved), pass.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { literalAddressProblem, refusedAddressKind } from '../../../server/src/webhooks/webhook-address.js';

void describe('webhook addresses', () => {
  void it('names the kind of every refused address', () => {
    const refused: Array<[string, RegExp]> = [
      ['127.0.0.1', /^a loopback address$/],
      ['127.8.9.10', /^a loopback address$/],
      ['::1', /^a loopback address$/],
      ['169.254.169.254', /^a link-local address$/],
      ['fe80::1', /^a link-local address$/],
      ['10.1.2.3', /^a private address$/],
      ['172.16.0.1', /^a private address$/],
      ['172.31.255.255', /^a private address$/],
      ['192.168.0.10', /^a private address$/],
      ['fd12:3456::1', /^a private \(unique local\) address$/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['0.0.0.0', /unspecified/],
      ['::', /unspecified/],
      ['224.0.0.251', /multicast/],
      ['ff02::1', /multicast/],
      ['::ffff:127.0.0.1', /^a loopback address$/],
      ['::ffff:a9fe:a9fe', /^a link-local address$/],
      ['::ffff:10.0.0.1', /^a private address$/],
      ['::127.0.0.1', /^a loopback address \(embedded in ::127\.0\.0\.1\)$/],
      ['64:ff9b::a9fe:a9fe', /^a link-local address \(embedded/],
      ['64:ff9b:1::808:808', /^a local-use NAT64 address$/],
      ['64:ff9b:1:ffff::1', /^a local-use NAT64 address$/],
      ['2002:a9fe:a9fe::', /^a link-local address \(embedded in 2002:a9fe:a9fe::\)$/],
      ['2002:7f00:1:5::9', /^a loopback address \(embedded/],
      ['2002:a00:1::1', /^a private address \(embedded/],
      ['2001::1', /^a Teredo address$/],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /^a Teredo address$/],
      ['::ffff:0:a9fe:a9fe', /^an IPv4-translated address$/],
      ['::ffff:0:808:808', /^an IPv4-translated address$/],
      ['192.0.0.8', /^an IETF protocol assignment address$/],
      ['198.18.0.1', /^a benchmarking address$/],
      ['198.19.255.255', /^a benchmarking address$/],
      ['100::1', /^a discard-only address$/],
      ['100::ffff:ffff:ffff:ffff', /^a discard-only address$/],
      ['192.0.2.1', /^a documentation address$/],
      ['198.51.100.7', /^a documentation address$/],
      ['203.0.113.200', /^a documentation address$/],
      ['2001:db8::1', /^a documentation address$/],
      ['2001:db8:ffff::1', /^a documentation address$/],
      ['::ffff:198.51.100.7', /^a documentation address$/],
    ];
    for (const [address, kind] of refused)
      assert.match(refusedAddressKind(address) ?? 'reachable', kind, address);
  });

  void it('lets public addresses and names through', () => {
    for (const address of [
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      // 6to4 of a public IPv4: the same host as 8.8.8.8 itself (webhook-address.ts says why it passes).
      '2002:808:808::1',
      // Just outside the new ranges.
      '198.17.255.255',
      '198.20.0.1',
      '192.0.3.1',
      '203.0.114.1',
      '100:0:0:1::1',
      '2001:1::1',
      '2001:db9::1',
      '64:ff9b:2::808:808',
      'hooks.example.com',
    ])
      assert.equal(refusedAddressKind(address), null, address);
  });

  void it('reads the literal address of a URL however it is spelled, naming the setting', () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://2130706433/hook',
      'http://0x7f.0.0.1/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'https://169.254.169.254/latest/meta-data/',
      'http://[2002:a9fe:a9fe::]/latest/meta-data/',
      // Loopback by name (RFC 6761), in any case and with a trailing dot.
      'http://localhost:9/hook',
      'http://Api.Localhost./hook',
    ])
      assert.match(
        literalAddressProblem(new URL(url)) ?? 'accepted',
        /^must not point to a (loopback|link-local) address \(.+\): .*FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow$/,
        url,
      );
    assert.equal(
      literalAddressProblem(new URL('http://localhost.example.com:9/hook')),
      null,
      'another name: checked when sent',
    );
    assert.equal(literalAddressProblem(new URL('https://93.184.215.14/hook')), null);
  });
});
