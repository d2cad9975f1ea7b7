// Fresh embedded data folders for tests, copied from a migrated template instead of made from nothing: a new
// PGlite folder or in-memory database runs initdb and every migration, 5.5 s to open and close on a quiet
// 2-core machine and 25-40 s under a test run's load, where a copy of a migrated folder opens and closes in
// 2.2-2.6 s, the copy included (12 s under that load). The template is shared by the run's test processes
// through the temporary folder, named by a digest of everything that decides what a new folder holds (the
// store's code and migrations, PGlite's version) and by the UTC day (migration 010 makes partitions around the
// day it runs), so a change to any of them builds a new one rather than reusing a stale one.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPgliteStore } from '../../server/src/store/pglite/pglite.js';
import type { Store } from '../../server/src/store/store.js';
import { auditedByTests } from './test-actor.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Every file under `dir`, by path, so the digest does not depend on the order the folder lists them in. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });

/** The template's name: what a new folder holds depends on these and nothing else. */
const templateName = (): string => {
  const hash = createHash('sha256');
  for (const path of filesUnder(join(ROOT, 'server/src/store'))) hash.update(path).update(readFileSync(path));
  hash.update(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  hash.update(new Date().toISOString().slice(0, 10));
  return `feature-test-template-${hash.digest('hex').slice(0, 16)}`;
};

/**
 * Removes templates (and builds cut short) last written over a day ago: 40 MB each, and a name is never used
 * again after its day. A newer one may belong to a run of another checkout.
 */
const removeStaleTemplates = (): void => {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('feature-test-template-')) continue;
    const path = join(tmpdir(), name);
    try {
      if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
};

/** Builds the template once per name; concurrent test processes race harmlessly, the first rename wins. */
const buildTemplate = async (): Promise<string> => {
  const template = join(tmpdir(), templateName());
  if (existsSync(template)) return template;
  removeStaleTemplates();
  const building = mkdtempSync(`${template}-building-`);
  try {
    await (await openPgliteStore(building)).close();
    try {
      // Atomic: a folder under the template's name is always a whole one.
      renameSync(building, template);
    } catch (error) {
      if (!existsSync(template)) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return template;
};

let template: Promise<string> | undefined;

/**
 * Makes `dir` (new, or an empty folder) a migrated, empty embedded database, as `openPgliteStore` leaves a new
 * folder once closed.
 */
export const copyTemplateDataDir = async (dir: string): Promise<void> => {
  template ??= buildTemplate();
  cpSync(await template, dir, { recursive: true });
};

/** A new data folder (its name starts with `prefix`) as `copyTemplateDataDir` makes it; the caller removes it. */
export const freshDataDir = async (prefix: string): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  await copyTemplateDataDir(dir);
  return dir;
};

/**
 * Opens the embedded store on a fresh folder (`freshDataDir`), removed when the store closes: for tests that
 * need an empty store and not a file of their own (in memory, each would run initdb and every migration).
 */
export const openFreshPgliteStore = async (): Promise<Store> => {
  const dir = await freshDataDir('feature-store-');
  let store: Store;
  try {
    store = auditedByTests(await openPgliteStore(dir));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const close = async (): Promise<void> => {
    try {
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return new Proxy(store, {
    get: (target, key, receiver): unknown => (key === 'close' ? close : Reflect.get(target, key, receiver)),
  });
};
