// Serves the README's browser-test examples to the browser tests as the modules a reader would save: the
// code block between `<!-- NAME -->` and `<!-- /NAME -->` in README.md, at `/readme/NAME.test.js`, unchanged
// (its bare imports resolve as any test file's do). A test file imports it, so the example runs in the suite
// exactly as the README shows it, and a README edit that breaks it fails the suite.
import { readFileSync } from 'node:fs';

const README = new URL('../../README.md', import.meta.url);

/**
 * The `js` code block between the markers named `name` in `file` (the README unless said, docs/teams.md for the
 * webhook verifier); throws when there is none.
 */
export const readmeExample = (name: string, file: URL = README): string => {
  const text = readFileSync(file, 'utf8');
  const section = new RegExp(`<!-- ${name} -->([\\s\\S]*?)<!-- /${name} -->`).exec(text)?.[1];
  const code = section === undefined ? undefined : /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (code === undefined)
    throw new Error(`${file.pathname} has no js block between <!-- ${name} --> and its end marker`);
  return code;
};

/** The web-test-runner plugin that serves `/readme/NAME.test.js`. */
export const readmeExamplesPlugin = () => ({
  name: 'readme-examples',
  serve(context: { path: string }): { body: string; type: string } | undefined {
    const name = /^\/readme\/([a-z-]+)\.test\.js$/.exec(context.path)?.[1];
    return name === undefined ? undefined : { body: readmeExample(name), type: 'js' };
  },
});
