// Which addresses webhooks may not reach by default (issue 36 follow-up): the server's own network in every
// spelling an attacker could pick (IPv4-mapped and IPv4-compatible IPv6, NAT64, decimal or hex IPv4 in a URL),
// while public addresses, and names (checked when they are resolved), pass.
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
    ])
      assert.match(
        literalAddressProblem(new URL(url)) ?? 'accepted',
        /^must not point to a (loopback|link-local) address \(.+\): .*FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow$/,
        url,
      );
    assert.equal(
      literalAddressProblem(new URL('http://localhost:9/hook')),
      null,
      'a name: checked when sent',
    );
    assert.equal(literalAddressProblem(new URL('https://93.184.215.14/hook')), null);
  });
});
