// The README's "Testing your page" example, run exactly as the README shows it: the plugin of
// test/support/wtr-readme-examples.ts serves its code block as a test module, whose `feature-ts/…` imports
// resolve to this package's sources (web-test-runner.config.js). Its `describe` blocks join this file's run.
const EXAMPLE = '/readme/testing-your-page.test.js';
await import(EXAMPLE);

export {};
