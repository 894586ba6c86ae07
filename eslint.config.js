// Lint: typescript-eslint with type-aware promise rules, the architecture's import boundaries
// (eslint-plugin-boundaries): domain/ is pure, platform/, db/ and config/ know no module, a module
// reaches another module only through its index.ts, and any other import between the kinds of code is
// refused unless a rule allows it; and no import cycles in src/ (eslint-plugin-import-x). Formatting is
// Prettier's job (npm run format:check).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import boundaries from 'eslint-plugin-boundaries';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries, 'import-x': importX },
    settings: {
      'boundaries/include': ['src/**/*.ts'],
      'boundaries/elements': [
        { type: 'module', pattern: 'src/modules/*', capture: ['name'] },
        { type: 'domain', pattern: 'src/domain' },
        { type: 'db', pattern: 'src/db' },
        { type: 'platform', pattern: 'src/platform' },
        { type: 'config', pattern: 'src/config' },
        { type: 'demo', pattern: 'src/demo' },
      ],
      'import/resolver': { typescript: { alwaysTryTypes: true } },
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      // No import cycles between files (value imports: a cycle through `import type` alone is erased at build).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Nothing in an element imports the entry points at the top of src/ (app, context, CLI, server).
      'boundaries/no-unknown-dependencies': 'error',
      'boundaries/dependencies': [
        'error',
        {
          // What no policy below allows is refused: a new kind of dependency is a decision, made here.
          default: 'disallow',
          policies: [
            // domain/ is pure: it imports nothing but itself.
            {
              from: { element: { type: 'domain' } },
              allow: { to: { element: { type: 'domain' } } },
            },
            // config/ reads the environment; it knows only itself.
            {
              from: { element: { type: 'config' } },
              allow: { to: { element: { type: 'config' } } },
            },
            // Shared layers never know a module: hand them what they need from the composition root.
            {
              from: { element: { type: 'platform' } },
              allow: { to: { element: { types: ['platform', 'db', 'config', 'domain'] } } },
            },
            {
              from: { element: { type: 'db' } },
              allow: { to: { element: { types: ['db', 'config', 'platform', 'domain'] } } },
            },
            // db/schema.ts combines the modules' table types: types only.
            {
              from: { element: { type: 'db' } },
              allow: { to: { element: { type: 'module', fileInternalPath: '**/*.table.ts' } }, dependency: { kind: 'type' } },
            },
            // A module uses the shared layers, its own files, and another module only through its index.ts.
            {
              from: { element: { type: 'module' } },
              allow: { to: { element: { types: ['platform', 'db', 'config', 'domain'] } } },
            },
            {
              from: { element: { type: 'module' } },
              allow: { to: { element: { type: 'module', captured: { name: '{{ from.captured.name }}' } } } },
            },
            {
              from: { element: { type: 'module' } },
              allow: { to: { element: { type: 'module', fileInternalPath: 'index.ts' } } },
            },
            // The demo seeds through the modules' indexes and the shared layers.
            {
              from: { element: { type: 'demo' } },
              allow: { to: { element: { types: ['demo', 'platform', 'db', 'config', 'domain'] } } },
            },
            {
              from: { element: { type: 'demo' } },
              allow: { to: { element: { type: 'module', fileInternalPath: 'index.ts' } } },
            },
          ],
        },
      ],
    },
  },
  {
    // Tests may look inside modules (white-box checks, mocks of one file) and use loose row access.
    files: ['**/*.test.ts', '**/*.test-helpers.ts', '**/*.test-support.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'boundaries/dependencies': 'off',
      'boundaries/no-unknown-dependencies': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // vi.mock's importOriginal<typeof import('…')>() is the documented pattern.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
    },
  },
  {
    // The operator portal (React): the rules of hooks, and browser globals.
    files: ['portal/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Migrations are frozen: they must not depend on today's table types, so they use an untyped handle.
    files: ['src/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', 'bin/*'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
);
