// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layer rule of DESIGN.md, enforced here as well as by the per-layer tsconfigs:
 * protocol <- engine <- core <- elements, and protocol <- engine <- server.
 * @param {string[]} forbidden folders under src/ this layer must not reach
 * @param {string} why
 */
const layer = (forbidden, why) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: forbidden.map((folder) => ({
        group: [`**/${folder}/*`, `**/${folder}`],
        message: why,
      })),
    },
  ],
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'server/dist/**',
      'node_modules/**',
      'coverage/**',
      '.feature-data/**',
      'custom-elements.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // Tool configs (vite, wtr, eslint) must default-export; the product's code never does.
    files: ['src/**/*.ts', 'server/src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only (DESIGN.md).' },
      ],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: layer(['engine', 'core', 'elements', 'server'], 'protocol imports nothing (DESIGN.md layers).'),
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: layer(['core', 'elements', 'server'], 'engine may import protocol only (DESIGN.md layers).'),
  },
  {
    files: ['src/core/**/*.ts'],
    rules: layer(['elements', 'server'], 'core may import protocol and engine only (DESIGN.md layers).'),
  },
  {
    files: ['src/elements/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/*', '**/engine/*', '**/protocol/*'],
              message: 'elements use core only (DESIGN.md layers).',
            },
            {
              regex: '^\\.\\./core/(?!index\\.js$)',
              message: 'elements use core only through its public entry.',
            },
          ],
        },
      ],
    },
  },
  {
    // feature-ts/openfeature (PROTOCOL.md §18.1) reaches the SDK through the package's main entry only: a relative
    // path would load a second copy of core beside the application's (the tracker knows its own hit classes).
    files: ['src/openfeature/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../core',
                '../core/*',
                '../elements',
                '../elements/*',
                '../engine',
                '../engine/*',
                '../../server/*',
              ],
              message:
                'openfeature uses the SDK through `feature-ts` and the protocol only (DESIGN.md layers).',
            },
            {
              // Types only: the entry then loads with either OpenFeature SDK installed (openfeature-names.ts).
              group: ['@openfeature/*'],
              allowTypeImports: true,
              message: 'openfeature imports only types from the OpenFeature packages (optional peers).',
            },
            {
              regex: '^feature-ts/(?!protocol$)',
              message:
                'openfeature uses the SDK through `feature-ts` and the protocol only (DESIGN.md layers).',
            },
          ],
        },
      ],
    },
  },
  {
    // The server is its own package: it reaches the SDK package only through its two exports, never by path.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/src/*',
                '**/core/*',
                '**/elements/*',
                '**/protocol/*',
                '**/engine/*',
                'lit',
                'lit/*',
                '@lit/*',
                'idb',
                'nanostores',
              ],
              message:
                'the server package uses the SDK package through feature-ts/protocol and feature-ts/engine only (DESIGN.md layers).',
            },
            {
              regex: '^feature-ts(?!/(protocol|engine)$)',
              message:
                'the server package uses the SDK package through feature-ts/protocol and feature-ts/engine only (DESIGN.md layers).',
            },
          ],
        },
      ],
    },
  },
  {
    // The console (DESIGN.md layers): a browser app on lit (and @lit/context, which carries its shared state from
    // <console-app> to the views) that reaches the server over HTTP only; from the SDK package it takes the
    // protocol's types and constants, nothing else.
    files: ['server/console/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/src/*',
                '!./**',
                '../../*',
                'idb',
                'nanostores',
                '@lit/*',
                '!@lit/context',
                'node:*',
              ],
              message:
                'the console imports lit, @lit/context and feature-ts/protocol only, and talks to the server over HTTP (DESIGN.md layers).',
            },
            {
              regex: '^feature-ts(?!/protocol$)',
              message:
                'the console imports lit, @lit/context and feature-ts/protocol only (DESIGN.md layers).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
