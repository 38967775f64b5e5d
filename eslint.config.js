import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerConfigs, layersPlugin } from './eslint.layers.js';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'test-artifacts/', 'bench/results/', 'src/panel/assets/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', fetch: 'readonly', NodeJS: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', performance: 'readonly', structuredClone: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // The layers of src/ (eslint.layers.js): no import up, none across a layer, no import circle.
  {
    files: ['src/**/*.{ts,mts,js,mjs}'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/no-import-cycle': 'error', 'layers/in-a-layer': 'error' },
  },
  ...layerConfigs(),
);
