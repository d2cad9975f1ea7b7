// @custom-elements-manifest/analyzer: custom-elements.json, read from the JSDoc of src/elements (`@summary`,
// `@attr`, `@slot`, `@fires`) and the `customElements.define` calls of define-feature-*.ts. Run it through
// `npm run manifest` (scripts/manifest.js), which also formats the result and, with `--check`, compares it.

/** `/src/elements/x.js` (how the analyzer names a module it imports) → `src/elements/x.ts` (its `path`). */
const moduleReference = (paths, reference) => {
  const path = reference.replace(/^\//, '');
  const source = path.replace(/\.js$/, '.ts');
  return paths.has(source) ? source : path;
};

/**
 * Keeps what a page or a tool can use, in a stable order: public members only (the analyzer also lists `#private`
 * and protected ones), modules sorted by path (globbing order depends on the file system), references to
 * modules spelled as the modules' own `path`, and each attribute linked to the property that mirrors it.
 */
const publicApi = () => ({
  name: 'feature-ts-public-api',
  packageLinkPhase({ customElementsManifest }) {
    const modules = customElementsManifest.modules;
    modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const paths = new Set(modules.map((m) => m.path));
    const relink = (owner) => {
      if (owner?.module !== undefined) owner.module = moduleReference(paths, owner.module);
    };
    for (const mod of modules) {
      for (const exported of mod.exports ?? []) relink(exported.declaration);
      for (const declaration of mod.declarations ?? []) {
        if (declaration.kind !== 'class') continue;
        relink(declaration.superclass);
        declaration.members = (declaration.members ?? []).filter(
          (m) => m.privacy !== 'private' && m.privacy !== 'protected' && !m.name.startsWith('#'),
        );
        for (const member of declaration.members) relink(member.inheritedFrom);
        for (const attribute of declaration.attributes ?? []) {
          relink(attribute.inheritedFrom);
          const fieldName = attribute.name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
          const field = declaration.members.find((m) => m.kind === 'field' && m.name === fieldName);
          if (field === undefined) continue;
          attribute.fieldName = fieldName;
          field.attribute = attribute.name;
        }
        for (const event of declaration.events ?? []) relink(event.inheritedFrom);
      }
    }
  },
});

export default {
  globs: ['src/elements/**/*.ts'],
  // feature-ts/testing's provider registers the `feature-provider` tag too, in tests only: in the manifest it
  // would be a second definition of the page's tag (IDEs merge the two). README "Testing your page" documents it.
  exclude: ['**/*.test.ts', '**/*.d.ts', 'src/elements/testing/**'],
  outdir: '.',
  // package.json names the manifest itself (`customElements`): the analyzer must not rewrite that file.
  packagejson: false,
  dependencies: false,
  plugins: [publicApi()],
};
