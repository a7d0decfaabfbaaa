import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';

/**
 * Dependencies point one way: lib <- machines <- workflows <- server <- web (over HTTP), and db <- workflows, server.
 * machines/ is pure (shared by the server, the web and the Temporal workflow bundle); lib/ holds neutral Node helpers;
 * db/ imports nothing of the server; the web reaches the server only over HTTP. Each zone says what a layer may not
 * import (eslint-plugin-import-x no-restricted-paths, resolved from the project root).
 */
const zone = (target, from, message) => ({ target, from, message });
const LAYERS = [
  zone('./lib', ['./machines', './workflows', './db', './server', './web'], 'lib/ is neutral: it imports nothing of the project.'),
  zone('./machines', ['./workflows', './db', './server', './web', './lib'], 'machines/ is pure: no engine, database, server or web code.'),
  zone('./workflows', ['./server', './web'], 'workflows/ sits below the server: pass what it needs in (deps), do not import it.'),
  zone('./db', ['./server', './workflows', './web'], 'db/ imports nothing of the server or the engine.'),
  zone('./server', ['./web'], 'the server does not import the web.'),
  zone('./web', ['./server', './db', './workflows', './lib'], 'the web reaches the server over HTTP only; shared rules live in machines/.'),
].flatMap(({ target, from, message }) => from.map((f) => ({ target, from: f, message })));

export default tseslint.config(
  { ignores: ['node_modules', 'web/dist', 'web/dist-ssr', 'data', 'db/migrations', 'docs', 'test-results', 'web/src/api/schema.gen.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: LAYERS }],
    },
  },
  // The service worker's template: its own global scope, and the shell list the build fills in (web/build/shell-plugins.ts).
  { files: ['web/build/service-worker.js'], languageOptions: { globals: { ...globals.serviceworker, __SHELL__: 'readonly' } } },
);
