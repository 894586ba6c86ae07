// Lint: typescript-eslint with type-aware promise rules, and the architecture's import boundaries
// (eslint-plugin-boundaries): domain/ is pure, platform/, db/ and config/ know no module, and a module
// reaches another module only through its index.ts. Formatting is Prettier's job (npm run format:check).
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
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
    plugins: { boundaries },
    settings: {
      'boundaries/include': ['src/**/*.ts'],
      'boundaries/elements': [
        { type: 'module', pattern: 'src/modules/*', capture: ['name'] },
        { type: 'domain', pattern: 'src/domain' },
        { type: 'db', pattern: 'src/db' },
        { type: 'platform', pattern: 'src/platform' },
        { type: 'config', pattern: 'src/config' },
      ],
      'import/resolver': { typescript: { alwaysTryTypes: true } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            // domain/ is pure: it imports nothing but itself.
            {
              from: { element: { type: 'domain' } },
              disallow: { to: { element: { types: ['db', 'platform', 'config', 'module'] } } },
              message: 'domain/ is pure and I/O-free: it must not import db/, platform/, config/ or a module',
            },
            // Shared layers never know a module (db/schema.ts only combines the modules' table types).
            {
              from: { element: { types: ['platform', 'config'] } },
              disallow: { to: { element: { type: 'module' } } },
              message: 'platform/ and config/ must not import a module: hand them what they need from the composition root',
            },
            {
              from: { element: { type: 'db' } },
              disallow: { to: { element: { type: 'module' } }, dependency: { kind: 'value' } },
              message: "db/ may only import the modules' table types (db/schema.ts)",
            },
            // A module reaches another module only through its index.ts: never its tables, repositories or services.
            {
              from: { element: { type: 'module' } },
              disallow: { to: { element: { type: 'module', fileInternalPath: '!index.ts' } } },
              message: 'a module uses another module only through its index.ts (docs/CONVENTIONS.md)',
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
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // vi.mock's importOriginal<typeof import('…')>() is the documented pattern.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
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
