// `node scripts/readme-elements.js`: the API tables of the three elements in README.md, rendered from
// custom-elements.json (`npm run manifest`) between `<!-- elements-api -->` and `<!-- /elements-api -->`. The
// rest of the README is left as it is. `--check` fails when the README's tables differ from what the manifest
// gives (part of `npm run lint`, after the manifest's own check).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { readOrNull, writeOrCheck } from './generated-file.js';

const README = 'README.md';
const MANIFEST = 'custom-elements.json';
const START = '<!-- elements-api -->';
const END = '<!-- /elements-api -->';
/** Containers first, then what goes inside them; tags not listed here follow in name order. */
const ORDER = ['feature-provider', 'feature-flag', 'feature-hit'];

process.chdir(fileURLToPath(new URL('..', import.meta.url)));

/** Text for one table cell: on one line, with the pipes that would end the cell escaped. */
const cell = (text) =>
  (text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/\|/g, '\\|');

const code = (text) => (text ? `\`${text}\`` : '');

const table = (header, rows) =>
  rows.length === 0
    ? ''
    : [
        `| ${header.join(' | ')} |`,
        `| ${header.map(() => '---').join(' | ')} |`,
        ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
      ].join('\n');

/** `name(parameter: Type, …)`: a method's call; its return type goes in the type column. */
const call = (method) => {
  const parameters = (method.parameters ?? [])
    .map((p) => `${p.name}${p.optional ? '?' : ''}${p.type ? `: ${p.type.text}` : ''}`)
    .join(', ');
  return `${method.name}(${parameters})`;
};

/** One element's section: its summary, then attributes, slots, events, and members no attribute mirrors. */
const section = (element) => {
  const attributes = element.attributes ?? [];
  const mirrored = new Set(attributes.map((a) => a.fieldName).filter(Boolean));
  const members = (element.members ?? []).filter((m) => !m.static && !mirrored.has(m.name));
  const parts = [
    `#### \`<${element.tagName}>\``,
    element.summary ?? '',
    table(
      ['Attribute', 'Property', 'Type', 'Description'],
      attributes.map((a) => [code(a.name), code(a.fieldName), code(a.type?.text), a.description]),
    ),
    table(
      ['Slot', 'Description'],
      (element.slots ?? []).map((s) => [s.name ? code(s.name) : '(default)', s.description]),
    ),
    table(
      ['Event', 'Type', 'Description'],
      (element.events ?? []).map((e) => [code(e.name), code(e.type?.text), e.description]),
    ),
    table(
      ['Property or method', 'Type', 'Description'],
      members.map((m) =>
        m.kind === 'method'
          ? [code(call(m)), code(m.return?.type?.text), m.description]
          : [code(m.name), code(`${m.readonly ? 'readonly ' : ''}${m.type?.text ?? ''}`), m.description],
      ),
    ),
  ];
  return parts.filter((part) => part !== '').join('\n\n');
};

const manifestText = readOrNull(MANIFEST);
if (manifestText === null) {
  console.error(`${MANIFEST} is missing: run \`npm run manifest\` first.`);
  process.exit(1);
}
const elements = JSON.parse(manifestText)
  .modules.flatMap((m) => m.declarations ?? [])
  .filter((d) => d.customElement && d.tagName)
  .sort((a, b) => {
    const rank = (d) => (ORDER.includes(d.tagName) ? ORDER.indexOf(d.tagName) : ORDER.length);
    return rank(a) - rank(b) || a.tagName.localeCompare(b.tagName);
  });

const readme = readFileSync(README, 'utf8');
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start === -1 || end < start) {
  console.error(`${README} has no \`${START}\` … \`${END}\` markers: put them where the tables belong.`);
  process.exit(1);
}
const generated = [
  `<!-- Generated from ${MANIFEST} (node scripts/readme-elements.js): edit the JSDoc in src/elements. -->`,
  ...elements.map(section),
].join('\n\n');
// Formatted alone: Markdown blocks format the same on their own as inside the whole file.
const options = (await prettier.resolveConfig(README)) ?? {};
const block = await prettier.format(generated, { ...options, filepath: README });
const text = `${readme.slice(0, start + START.length)}\n\n${block}\n${readme.slice(end)}`;

writeOrCheck({
  file: README,
  text,
  command: 'node scripts/readme-elements.js',
  check: process.argv.includes('--check'),
  what: MANIFEST,
});
