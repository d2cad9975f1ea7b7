// Visitor context (SPEC.md context rules and predefined keys; PROTOCOL.md §3 limits, §16.5): refused values
// with their logged reason, predefined keys type-checked, clearContext keeping the SDK's keys. The values of
// the auto-set keys differ by runtime only as §16.5 says (sdk_deviceType).
import type { CoreHarness } from './harness.js';
import { assertThrows, decisionBodies, withSession } from './session.js';

const AUTO_KEYS = [
  'sdk_firstTimeInit',
  'sdk_deviceLanguage',
  'sdk_deviceType',
  'sdk_osName',
  'sdk_osVersionCode',
  'sdk_fsVersion',
];

const errors = (logs: Array<{ level: string; message: string }>): string[] =>
  logs.filter((l) => l.level === 'ERROR').map((l) => l.message);

/** Defines the context suite on a runtime's harness. */
export const defineContextSuite = (h: CoreHarness): void => {
  const { describe, it, assert } = h;
  const { FeatureContext } = h.sdk;
  /** PROTOCOL.md §16.5: `server` in Node; `mobile`, `tablet` or `desktop` in a browser. */
  const deviceTypes = h.runtime === 'node' ? ['server'] : ['mobile', 'tablet', 'desktop'];

  describe('context rules', () => {
    it('string, boolean and finite numbers are applied; other values are refused with the reason, the rest applied', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        visitor.updateContextWithMap({
          plan: 'premium',
          age: 31,
          ratio: 0.5,
          vip: false,
          nan: NaN,
          inf: Infinity,
          nul: null as never,
          arr: [1] as never,
          obj: {} as never,
          und: undefined as never,
        });
        assert.deepEqual(
          Object.fromEntries(
            Object.entries(visitor.context).filter(([k]) => !k.startsWith('sdk_') && !k.startsWith('fs_')),
          ),
          { plan: 'premium', age: 31, ratio: 0.5, vip: false },
        );
        assert.deepEqual(errors(logs), [
          'context key "nan" refused: a number must be finite.',
          'context key "inf" refused: a number must be finite.',
          'context key "nul" refused: a value must be a string, a boolean or a finite number, not null.',
          'context key "arr" refused: a value must be a string, a boolean or a finite number, not an array.',
          'context key "obj" refused: a value must be a string, a boolean or a finite number, not object.',
          'context key "und" refused: a value must be a string, a boolean or a finite number, not undefined.',
        ]);
      }));

    it('updateContext refuses the same types one by one, with the reason', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        visitor.updateContext('list', ['a'] as never);
        visitor.updateContext('when', new Date(0) as never);
        visitor.updateContext('ok', 'yes');
        assert.equal(visitor.context.list, undefined);
        assert.equal(visitor.context.when, undefined);
        assert.equal(visitor.context.ok, 'yes');
        assert.deepEqual(errors(logs), [
          'context key "list" refused: a value must be a string, a boolean or a finite number, not an array.',
          'context key "when" refused: a value must be a string, a boolean or a finite number, not object.',
        ]);
      }));

    it('keys are case sensitive; empty, too long and fs_ keys are refused', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: true })
          .withContext({ Plan: 'a', plan: 'b' })
          .build();
        visitor.updateContext('', 'x');
        visitor.updateContext('k'.repeat(257), 'x');
        visitor.updateContext('fs_users', 'someone');
        assert.equal(visitor.context.Plan, 'a');
        assert.equal(visitor.context.plan, 'b');
        assert.equal(visitor.context.fs_users, 'v1');
        assert.deepEqual(
          errors(logs).map((m) => m.replace(/k{257}/, 'K')),
          [
            'context key "" refused: a key must be a non-empty string.',
            'context key "K" refused: a key has at most 256 characters.',
            'context key "fs_users" refused: keys starting with fs_ are set by the SDK.',
          ],
        );
      }));

    it('at most 200 keys are sent, fs_* included: the 192nd application key is refused', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const map: Record<string, number> = {};
        for (let i = 0; i < 200; i++) map[`k${i}`] = i;
        visitor.updateContextWithMap(map);
        // 6 auto keys + 3 fs_* keys: 191 application keys fit.
        assert.equal(Object.keys(visitor.context).length, 200);
        assert.equal(visitor.context.k190, 190);
        assert.equal(visitor.context.k191, undefined);
        assert.match(
          logs.find((l) => l.level === 'ERROR')?.message ?? '',
          /context key "k191" refused: a context holds at most 200 keys/,
        );
      }));

    it('at most 32 KiB of JSON: a value that passes it is refused', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        // Four values of 8 000 characters fit (a string value holds at most 8 192); a fifth passes 32 KiB.
        for (let i = 0; i < 4; i++) visitor.updateContext(`big${i}`, 'x'.repeat(8000));
        assert.equal(visitor.context.big3?.toString().length, 8000);
        visitor.updateContext('big4', 'x'.repeat(1000));
        assert.equal(visitor.context.big4, undefined);
        assert.match(logs.at(-1)?.message ?? '', /a context holds at most 32768 bytes of JSON/);
      }));

    it('a string value holds at most 8 192 characters: one more is refused by name, the rest kept', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        visitor.updateContextWithMap({ url: 'u'.repeat(8192), long: 'l'.repeat(8193), plan: 'gold' });
        assert.equal(visitor.context.url, 'u'.repeat(8192));
        assert.equal(visitor.context.long, undefined);
        assert.equal(visitor.context.plan, 'gold');
        assert.match(
          logs.find((l) => l.level === 'ERROR')?.message ?? '',
          /context key "long" refused: a string value has at most 8192 characters \(this one has 8193\)/,
        );
      }));

    it('the 32 KiB bound is exact, counted in UTF-8 bytes, and a replaced value frees its own bytes', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        // Three values of the longest string a value may be, so that the rest fits in one value too.
        for (let i = 0; i < 3; i++) visitor.updateContext(`fill${i}`, 'f'.repeat(8192));
        const own = Object.fromEntries(Object.entries(visitor.context).filter(([k]) => !k.startsWith('fs_')));
        const base = new TextEncoder().encode(JSON.stringify(own)).length;
        // `,"big":"…"` adds 9 bytes around the value; é is 2 bytes, a is 1.
        const room = 32 * 1024 - base - 9;
        const fits = 'é'.repeat(Math.floor(room / 2)) + 'a'.repeat(room % 2);
        visitor.updateContext('big', fits);
        assert.equal(visitor.context.big, fits, 'exactly 32 768 bytes fit');
        visitor.updateContext('big', `${fits}a`);
        assert.equal(visitor.context.big, fits, 'one byte more is refused');
        assert.match(
          logs.at(-1)?.message ?? '',
          /context key "big" refused: a context holds at most 32768 bytes/,
        );
        // Four é fewer free 8 bytes: `,"small":1` needs 10. Five fewer free exactly 10.
        visitor.updateContext('big', fits.slice(4));
        visitor.updateContext('small', 1);
        assert.equal(visitor.context.small, undefined, '8 bytes free are not enough for 10');
        visitor.updateContext('big', fits.slice(5));
        visitor.updateContext('small', 1);
        assert.equal(visitor.context.small, 1, 'with 10 bytes free it fits');
      }));

    it('a map that passes 32 KiB midway: every key that fits is applied, in order, and only the rest refused', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        const own: Record<string, unknown> = Object.fromEntries(
          Object.entries(visitor.context).filter(([k]) => !k.startsWith('fs_')),
        );
        const map: Record<string, string> = {};
        for (let i = 0; i < 100; i++) map[`k${i}`] = (i % 2 === 0 ? 'é' : 'a').repeat(300 + i);
        // What one-by-one application keeps: each key while the whole context's JSON stays within 32 768 bytes.
        const expected: string[] = [];
        for (const [key, value] of Object.entries(map)) {
          const next = { ...own, [key]: value };
          if (new TextEncoder().encode(JSON.stringify(next)).length > 32 * 1024) continue;
          own[key] = value;
          expected.push(key);
        }
        assert.ok(expected.length > 20 && expected.length < 100, `${expected.length} keys fit`);
        visitor.updateContextWithMap(map);
        assert.deepEqual(
          Object.keys(visitor.context).filter((k) => k.startsWith('k')),
          expected,
        );
        const refused = logs.filter((l) => l.level === 'ERROR').map((l) => /"(k\d+)"/.exec(l.message)?.[1]);
        assert.deepEqual(
          refused,
          Object.keys(map).filter((k) => !expected.includes(k)),
        );
      }));

    it('__proto__, constructor and prototype keys are refused (the server refuses a body holding them)', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: true })
          .withContext(JSON.parse('{"__proto__":"x","constructor":"y","prototype":"z","ok":1}') as never)
          .build();
        assert.deepEqual(
          Object.keys(visitor.context).filter((k) => !k.startsWith('sdk_') && !k.startsWith('fs_')),
          ['ok'],
        );
        assert.equal(Object.getPrototypeOf(visitor.context), Object.prototype);
        assert.deepEqual(
          errors(logs),
          ['__proto__', 'constructor', 'prototype'].map(
            (k) => `context key "${k}" refused: JSON parsers reserve it.`,
          ),
        );
      }));

    it('the context is a read-only copy', () =>
      withSession(h, {}, ({ instance }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: true })
          .withContext({ a: 1 })
          .build();
        const context = visitor.context;
        assert.ok(Object.isFrozen(context));
        assertThrows(
          assert,
          () => {
            (context as Record<string, unknown>).a = 2;
          },
          /read only/,
        );
        assert.equal(visitor.context.a, 1);
        // A snapshot taken earlier keeps its values; the context read after a change shows the change.
        visitor.updateContext('a', 3);
        assert.equal(visitor.context.a, 3);
        assert.equal(context.a, 1);
        visitor.clearContext();
        assert.equal(visitor.context.a, undefined);
        visitor.authenticate('user-2');
        assert.equal(visitor.context.fs_users, 'user-2');
        visitor.unauthenticate();
        assert.equal(visitor.context.fs_users, 'v1');
      }));

    it('the context sent carries the auto-set keys, the application keys and fs_client, fs_version, fs_users', () =>
      withSession(h, {}, async ({ instance, double }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: true })
          .withContext({ plan: 'premium' })
          .build();
        await visitor.fetchFlags();
        const [body] = await decisionBodies(double);
        const context = body?.context as Record<string, unknown>;
        assert.deepEqual(
          Object.keys(context).sort(),
          [...AUTO_KEYS, 'fs_client', 'fs_users', 'fs_version', 'plan'].sort(),
        );
        assert.equal(context.plan, 'premium');
        assert.equal(context.fs_client, 'feature-ts');
        assert.equal(context.fs_version, h.sdkVersion);
        assert.equal(context.fs_users, 'v1');
        assert.equal(context.sdk_fsVersion, h.sdkVersion);
        assert.equal(typeof context.sdk_firstTimeInit, 'boolean');
        assert.ok(deviceTypes.includes(String(context.sdk_deviceType)), String(context.sdk_deviceType));
        for (const key of ['sdk_deviceLanguage', 'sdk_osName', 'sdk_osVersionCode'])
          assert.equal(typeof context[key], 'string', key);
      }));

    it('clearContext removes the application keys and keeps the sdk_* auto keys and fs_*', () =>
      withSession(h, {}, ({ instance }) => {
        const visitor = instance
          .newVisitor({ visitorId: 'v1', hasConsented: true })
          .withContext({ plan: 'premium' })
          .build();
        const gathered = visitor.context.sdk_deviceType;
        visitor.updateFeatureContext(FeatureContext.LOCATION_CITY, 'Paris');
        visitor.updateFeatureContext(FeatureContext.DEVICE_TYPE, 'kiosk');
        assert.equal(visitor.context.sdk_deviceType, 'kiosk', 'an auto-set key can be overridden');
        visitor.clearContext();
        assert.deepEqual(
          Object.keys(visitor.context).sort(),
          [...AUTO_KEYS, 'fs_client', 'fs_users', 'fs_version'].sort(),
        );
        assert.equal(visitor.context.sdk_deviceType, gathered, 'the SDK value comes back');
        assert.ok(deviceTypes.includes(String(gathered)));
      }));
  });

  describe('predefined context keys (FeatureContext)', () => {
    it('every key of SPEC.md with its context key and type', () => {
      assert.deepEqual(
        Object.fromEntries(Object.entries(FeatureContext).map(([name, k]) => [name, `${k.key}:${k.type}`])),
        {
          FIRST_TIME_INIT: 'sdk_firstTimeInit:boolean',
          DEVICE_LOCAL: 'sdk_deviceLanguage:string',
          DEVICE_TYPE: 'sdk_deviceType:string',
          LOCATION_CITY: 'sdk_city:string',
          LOCATION_REGION: 'sdk_region:string',
          LOCATION_COUNTRY: 'sdk_country:string',
          LOCATION_LAT: 'sdk_lat:double',
          LOCATION_LONG: 'sdk_long:double',
          OS_NAME: 'sdk_osName:string',
          OS_VERSION_CODE: 'sdk_osVersionCode:string',
          MVNO: 'sdk_carrierName:string',
          CARRIER_NAME: 'sdk_carrierName:string',
          DEV_MODE: 'sdk_devMode:boolean',
          INTERNET_CONNECTION: 'sdk_internetConnection:string',
          APP_VERSION_NAME: 'sdk_versionName:string',
          APP_VERSION_CODE: 'sdk_versionCode:int',
          FEATURE_VERSION: 'sdk_fsVersion:string',
          INTERFACE_NAME: 'sdk_interfaceName:string',
        },
      );
    });

    it('updateFeatureContext sets values of the right type and refuses the others with the reason', () =>
      withSession(h, {}, ({ instance, logs }) => {
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        visitor.updateFeatureContext(FeatureContext.LOCATION_LAT, 48.85);
        visitor.updateFeatureContext(FeatureContext.APP_VERSION_CODE, 42);
        visitor.updateFeatureContext(FeatureContext.DEV_MODE, true);
        visitor.updateFeatureContext(FeatureContext.CARRIER_NAME, 'Orange');
        visitor.updateFeatureContext(FeatureContext.FIRST_TIME_INIT, false);
        visitor.updateFeatureContext(FeatureContext.APP_VERSION_CODE, 4.2);
        visitor.updateFeatureContext(FeatureContext.LOCATION_LONG, '2.35' as never);
        visitor.updateFeatureContext(FeatureContext.DEV_MODE, 1 as never);
        visitor.updateFeatureContext(FeatureContext.INTERFACE_NAME, 3 as never);
        visitor.updateFeatureContext('sdk_city' as never, 'Paris');
        const c = visitor.context;
        assert.equal(c.sdk_lat, 48.85);
        assert.equal(c.sdk_versionCode, 42);
        assert.equal(c.sdk_devMode, true);
        assert.equal(c.sdk_carrierName, 'Orange');
        assert.equal(c.sdk_firstTimeInit, false, 'an auto-set key can be overridden');
        assert.equal(c.sdk_long, undefined);
        assert.equal(c.sdk_interfaceName, undefined);
        assert.equal(c.sdk_city, undefined);
        assert.deepEqual(errors(logs), [
          'context refused: sdk_versionCode takes an integer.',
          'context refused: sdk_long takes a double.',
          'context refused: sdk_devMode takes a boolean.',
          'context refused: sdk_interfaceName takes a string.',
          'context refused: updateFeatureContext takes a FeatureContext key.',
        ]);
      }));
  });
};
