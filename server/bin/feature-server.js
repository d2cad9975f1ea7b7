#!/usr/bin/env node
// The `feature-server` command: runs the compiled CLI (dist/cli.js, built by `npm run build` at the
// repository's root, or shipped in the package).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('feature-server: the server is not built: run `npm run build` at the repository root.');
  process.exit(1);
}
const { runCli } = await import(cli.href);
const code = await runCli(process.argv.slice(2));
// serve/start keep running (their sockets hold the process); other commands end with their code.
if (code !== 0) process.exit(code);
