// Visitor context (SPEC.md context rules, predefined keys; PROTOCOL.md §3 limits, §16.5).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { FeatureContext, SDK_VERSION_FOR_TESTS } from './context-fixtures.js';
import { decisionBodies, startSdk, type Sdk } from './support.js';

let sdk: Sdk | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

const AUTO_KEYS = [
  'sdk_firstTimeInit',
  'sdk_deviceLanguage',
  'sdk_deviceType',
  'sdk_osName',
  'sdk_osVersionCode',
  'sdk_fsVersion',
];

void describe('context rules', () => {
  void test('string, boolean and finite numbers are applied; other values are refused with the reason, the rest applied', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
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
    assert.deepEqual(
      sdk.logs.lines.filter((l) => l.level === 'ERROR').map((l) => l.message),
      [
        'context key "nan" refused: a number must be finite.',
        'context key "inf" refused: a number must be finite.',
        'context key "nul" refused: a value must be a string, a boolean or a finite number, not null.',
        'context key "arr" refused: a value must be a string, a boolean or a finite number, not an array.',
        'context key "obj" refused: a value must be a string, a boolean or a finite number, not object.',
        'context key "und" refused: a value must be a string, a boolean or a finite number, not undefined.',
      ],
    );
  });

  void test('keys are case sensitive; empty, too long and fs_ keys are refused', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance
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
      sdk.logs.lines.filter((l) => l.level === 'ERROR').map((l) => l.message.replace(/k{257}/, 'K')),
      [
        'context key "" refused: a key must be a non-empty string.',
        'context key "K" refused: a key has at most 256 characters.',
        'context key "fs_users" refused: keys starting with fs_ are set by the SDK.',
      ],
    );
  });

  void test('at most 200 keys are sent, fs_* included: the 198th application key is refused', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const map: Record<string, number> = {};
    for (let i = 0; i < 200; i++) map[`k${i}`] = i;
    visitor.updateContextWithMap(map);
    // 6 auto keys + 3 fs_* keys: 191 application keys fit.
    assert.equal(Object.keys(visitor.context).length, 200);
    assert.equal(visitor.context.k190, 190);
    assert.equal(visitor.context.k191, undefined);
    assert.match(
      sdk.logs.lines.find((l) => l.level === 'ERROR')?.message ?? '',
      /context key "k191" refused: a context holds at most 200 keys/,
    );
  });

  void test('at most 32 KiB of JSON: a value that passes it is refused', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    visitor.updateContext('big', 'x'.repeat(33 * 1024));
    assert.equal(visitor.context.big, undefined);
    assert.match(sdk.logs.lines.at(-1)?.message ?? '', /a context holds at most 32768 bytes of JSON/);
  });

  void test('the context is a read-only copy', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'v1', hasConsented: true })
      .withContext({ a: 1 })
      .build();
    const context = visitor.context;
    assert.ok(Object.isFrozen(context));
    assert.throws(() => {
      (context as Record<string, unknown>).a = 2;
    });
    assert.equal(visitor.context.a, 1);
  });

  void test('the context sent carries the auto-set keys, the application keys and fs_client, fs_version, fs_users', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'v1', hasConsented: true })
      .withContext({ plan: 'premium' })
      .build();
    await visitor.fetchFlags();
    const [body] = decisionBodies(sdk.double);
    const context = body?.context as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(context).sort(),
      [...AUTO_KEYS, 'fs_client', 'fs_users', 'fs_version', 'plan'].sort(),
    );
    assert.equal(context.fs_client, 'feature-ts');
    assert.equal(context.fs_version, SDK_VERSION_FOR_TESTS);
    assert.equal(context.fs_users, 'v1');
    assert.equal(context.sdk_fsVersion, SDK_VERSION_FOR_TESTS);
    assert.equal(context.sdk_deviceType, 'server');
  });

  void test('clearContext removes the application keys and keeps the sdk_* auto keys and fs_*', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance
      .newVisitor({ visitorId: 'v1', hasConsented: true })
      .withContext({ plan: 'premium' })
      .build();
    visitor.updateFeatureContext(FeatureContext.LOCATION_CITY, 'Paris');
    visitor.updateFeatureContext(FeatureContext.DEVICE_TYPE, 'kiosk');
    visitor.clearContext();
    assert.deepEqual(
      Object.keys(visitor.context).sort(),
      [...AUTO_KEYS, 'fs_client', 'fs_users', 'fs_version'].sort(),
    );
    assert.equal(visitor.context.sdk_deviceType, 'server', 'the SDK value comes back');
  });
});

void describe('predefined context keys (FeatureContext)', () => {
  void test('every key of SPEC.md with its context key and type', () => {
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

  void test('updateFeatureContext sets values of the right type and refuses the others with the reason', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
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
    assert.deepEqual(
      sdk.logs.lines.filter((l) => l.level === 'ERROR').map((l) => l.message),
      [
        'context refused: sdk_versionCode takes an integer.',
        'context refused: sdk_long takes a double.',
        'context refused: sdk_devMode takes a boolean.',
        'context refused: sdk_interfaceName takes a string.',
        'context refused: updateFeatureContext takes a FeatureContext key.',
      ],
    );
  });

  void test('the Node platform sets the auto keys of PROTOCOL.md §16.5', async () => {
    const { nodePlatform } = await import('../../src/core/platform/node.js');
    const os = await import('node:os');
    const device = await nodePlatform.deviceContext();
    const names: Record<string, string> = { Linux: 'Linux', Darwin: 'macOS', Windows_NT: 'Windows' };
    assert.equal(device.sdk_firstTimeInit, false, 'an earlier start in this process happened in other tests');
    assert.equal(device.sdk_deviceLanguage, Intl.DateTimeFormat().resolvedOptions().locale);
    assert.equal(device.sdk_deviceType, 'server');
    assert.equal(device.sdk_osName, names[os.type()] ?? os.type());
    assert.equal(device.sdk_osVersionCode, os.release());
    assert.equal(device.sdk_fsVersion, SDK_VERSION_FOR_TESTS);
  });
});
