// Lint: the layers import only downward, and no module imports itself back through a cycle.
//   plugin-sdk   the contract: imports none of ours
//   runtime      the core: imports plugin-sdk only (never a plugin, a sandbox or the policy language)
//   sandbox      user-code hosts: plugin-sdk only
//   policies     the policy language: plugin-sdk and sandbox (its WASM ABI runs on the WASM host)
//   gateway      the gateway's domain (exchange, govern, records, fields): plugin-sdk, policies and sandbox; never a
//                plugin, never the runtime
//   plugins/X    plugin-sdk, policies, sandbox, gateway, and X itself: never another plugin, never the runtime
//   app          the composition root: anything
//   ui           the web front end: talks to the server over HTTP only, so it imports no server layer, and no server
//                layer imports it (it is built to static assets)
//   clients/X    client SDKs, published on their own: they speak the wire contract and import no layer of the server
//                (not even plugin-sdk), and no server layer imports them
//   middleware   @vigil/express and @vigil/koa with their shared core: a composition for the app's process (the config
//                loader, the policy language, the gateway's kernel); it imports no plugin, and no server layer imports it
// Tests and benchmarks drive every layer and are exempt from the boundaries.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const plugins = readdirSync(new URL('./plugins/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory()).map((d) => d.name);

const zone = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });
const layers = [
  ...['./runtime', './gateway', './plugins', './policies', './sandbox', './app'].map((from) =>
    zone('./plugin-sdk/src', from, 'plugin-sdk is the contract every layer builds on; it imports none of them')),
  ...['./gateway', './plugins', './policies', './sandbox', './app'].map((from) =>
    zone('./runtime', from, 'the runtime knows no plugin, sandbox or policy language: receive it from the composition root (app/)')),
  ...['./runtime', './gateway', './plugins', './policies', './app'].map((from) =>
    zone('./sandbox', from, 'a sandbox host imports only plugin-sdk')),
  ...['./runtime', './gateway', './plugins', './app'].map((from) =>
    zone('./policies', from, 'the policy language imports only plugin-sdk and the sandbox hosts')),
  ...['./runtime', './plugins', './app'].map((from) =>
    zone('./gateway', from, 'the gateway\'s kernel imports plugin-sdk, policies and sandbox: never a plugin (plugins import it) or the runtime')),
  ...['./runtime', './app'].map((from) =>
    zone('./plugins', from, 'a plugin reaches the core only through the plugin-sdk context')),
  ...plugins.map((name) => zone(`./plugins/${name}`, './plugins', 'a plugin never imports another plugin: use a service or a bus topic', [`./${name}`])),
  ...['./plugin-sdk', './runtime', './gateway', './plugins', './policies', './sandbox', './app'].flatMap((layer) => [
    zone('./ui', layer, 'the web UI talks to the server over HTTP only: it imports no server layer'),
    zone(layer, './ui', 'nothing imports the web UI: it is built to static assets that plugins/ui serves'),
    zone('./clients', layer, 'a client SDK is published on its own and speaks the wire contract: it imports no server layer'),
    zone(layer, './clients', 'the server never imports a client SDK: clients talk to it over the wire contract'),
  ]),
  zone('./clients', './ui', 'a client SDK imports nothing of the web UI'),
  ...['./plugin-sdk', './runtime', './gateway', './plugins', './policies', './sandbox', './app', './ui', './clients'].map((layer) =>
    zone(layer, './middleware', 'the Express and Koa middleware run in an app\'s process: no server layer imports them')),
  ...['./app', './plugins', './ui', './clients'].map((from) =>
    zone('./middleware', from, 'the middleware imports the layers it runs (config loader, policies, the gateway\'s kernel), never a plugin, the app, the UI or a client')),
];

export default tseslint.config(
  { ignores: ['**/dist/**', 'node_modules/**', '**/assembly/**', 'tests/fixtures/**', 'examples/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Node's globals for the plain scripts; TypeScript checks names in .ts files itself.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' } },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module', ecmaVersion: 2023, ecmaFeatures: { jsx: true } } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['./tsconfig.json', './ui/tsconfig.json', './tests/tsconfig.dom.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      'no-undef': 'off',
      // Input parsers match control characters on purpose (paths, headers, redirect targets).
      'no-control-regex': 'off',
      // A closure may read a binding assigned once, later (a callback registered before its context exists).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-restricted-paths': ['error', { zones: layers }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },
  // Tests and benchmarks drive every layer directly.
  {
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
