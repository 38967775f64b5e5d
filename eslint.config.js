import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerConfigs, layersPlugin } from './eslint.layers.js';

const DIALECT_TEST_MESSAGE =
  'A dialect test outside src/db: give the dialect object (src/db/dialect.ts) an operation with a SQLite and a PostgreSQL implementation (src/db/dialects/) and call it instead.';
const DIALECT_TESTS = [
  {
    selector: 'BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(?:sqlite|postgres)$/]',
    message: DIALECT_TEST_MESSAGE,
  },
  { selector: 'SwitchCase > Literal.test[value=/^(?:sqlite|postgres)$/]', message: DIALECT_TEST_MESSAGE },
];

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'test-artifacts/', 'bench/results/', 'src/panel/assets/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        NodeJS: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // The layers of src/ (eslint.layers.js): no import up, none across a layer, no import circle.
  // Outside src/db, no code asks which database it is on: it asks the dialect object to do a thing.
  // Outside src/db, src/repositories and a capability's *-repository.ts, no query is built.
  {
    files: ['src/**/*.{ts,mts,js,mjs}'],
    plugins: { layers: layersPlugin },
    rules: {
      'layers/no-import-cycle': 'error',
      'layers/in-a-layer': 'error',
      'layers/queries-in-repositories': 'error',
    },
  },
  ...layerConfigs((entry) => (entry === 'db' ? [] : DIALECT_TESTS)),
);
