// The role a single sign-on gives (issue 36): the highest role among the person's matching groups and email
// domain, none without a match; the groups claim read whatever its shape.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emailDomain, groupsOf, roleFor } from '../../../server/src/sso/sso-roles.js';

const settings = {
  groupRoles: [
    { group: 'feature-admins', role: 'admin' as const },
    { group: 'marketing', role: 'editor' as const },
    { group: 'Everyone', role: 'viewer' as const },
  ],
  domainRoles: [
    { domain: 'example.com', role: 'viewer' as const },
    { domain: 'partner.example', role: 'editor' as const },
  ],
};

void describe('single sign-on roles', () => {
  void it('gives the highest role among the matches', () => {
    assert.equal(
      roleFor(settings, { email: 'a@example.com', groups: ['marketing', 'feature-admins'] }),
      'admin',
    );
    assert.equal(roleFor(settings, { email: 'a@example.com', groups: ['marketing'] }), 'editor');
    assert.equal(roleFor(settings, { email: 'a@example.com', groups: [] }), 'viewer');
    assert.equal(roleFor(settings, { email: 'b@partner.example', groups: ['Everyone'] }), 'editor');
  });

  void it('gives none without a match', () => {
    assert.equal(roleFor(settings, { email: 'a@elsewhere.org', groups: ['sales'] }), null);
    assert.equal(
      roleFor(settings, { email: 'a@sub.example.com', groups: [] }),
      null,
      'a subdomain is another domain',
    );
    assert.equal(
      roleFor(settings, { email: 'a@elsewhere.org', groups: ['everyone'] }),
      null,
      'groups are case-sensitive',
    );
    assert.equal(
      roleFor({ groupRoles: [], domainRoles: [] }, { email: 'a@example.com', groups: ['x'] }),
      null,
    );
  });

  void it('compares domains case-insensitively', () => {
    assert.equal(roleFor(settings, { email: 'A@EXAMPLE.COM', groups: undefined }), 'viewer');
    assert.equal(emailDomain('first@last@Example.COM'), 'example.com');
    assert.equal(emailDomain('no-at'), '');
  });

  void it('reads the groups claim whatever its shape', () => {
    assert.deepEqual(groupsOf(['a', 2, null, 'b']), ['a', 'b']);
    assert.deepEqual(groupsOf('a'), ['a']);
    assert.deepEqual(groupsOf({ a: 1 }), []);
    assert.deepEqual(groupsOf(undefined), []);
    assert.equal(roleFor(settings, { email: 'x@none.org', groups: 'feature-admins' }), 'admin');
  });
});
