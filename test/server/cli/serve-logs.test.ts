// What `feature-server serve` logs where: readable lines by default, even when stdout is not a terminal (here,
// a pipe), so what the command prints and what it logs read alike; JSON lines only with LOG_FORMAT=json; and a
// clear refusal of an unknown LOG_FORMAT before anything starts.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliInProcess, spawnCli } from '../cli-support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';

/** Starts `serve` on port 0 and resolves with the first two lines it printed on stdout, then stops it. */
const firstLines = async (env: Record<string, string>): Promise<string[]> => {
  const child = spawnCli(['serve'], { PORT: '0', LOG_LEVEL: 'info', ...env });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no output: ${stderr}`)), 30_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const lines = stdout.split('\n');
        if (lines.length > 2) {
          clearTimeout(timer);
          resolve(lines.slice(0, 2));
        }
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${String(code)}: ${stderr}`)));
    });
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGINT');
    await exited;
  }
};

void describe('feature-server serve: log format', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-logs-'));
  const env = { FEATURE_DATA_DIR: join(dir, 'data') };
  after(() => rmSync(dir, { recursive: true, force: true }));
  // A copy of a migrated folder: what is tested is the log format, not the folder's creation (cli.test.ts).
  before(() => copyTemplateDataDir(env.FEATURE_DATA_DIR));

  void it('logs readable lines by default, without colours off a terminal, like the lines it prints', async () => {
    const [log = '', printed = ''] = await firstLines({ ...env, LOG_FORMAT: '' });
    assert.match(
      log,
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}feature-server listening at http:\/\/127\.0\.0\.1:\d+ \(embedded PGlite store\)$/,
    );
    assert.match(printed, /^feature-server listening on http:\/\/127\.0\.0\.1:\d+$/);
  });

  void it('logs JSON lines with LOG_FORMAT=json, for log collectors', async () => {
    const [log = ''] = await firstLines({ ...env, LOG_FORMAT: 'json' });
    const record = JSON.parse(log) as { level: number; msg: string };
    assert.equal(record.level, 30);
    assert.match(
      record.msg,
      /^feature-server listening at http:\/\/127\.0\.0\.1:\d+ \(embedded PGlite store\)$/,
    );
  });

  void it('refuses an unknown LOG_FORMAT and says what to set', async () => {
    // In this process: an unknown LOG_FORMAT is refused before the server opens anything.
    const run = await runCliInProcess(['serve'], { ...env, LOG_FORMAT: 'xml' });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /LOG_FORMAT=xml is invalid: use pretty \(the default: one readable line an event\) or json/,
    );
    assert.equal(run.stdout, '');
  });
});
