// ESLint 9 flat config. Syntax-only typescript-eslint rules (no type information) keep `npm run lint` fast;
// `tsc --noEmit` and lit-analyzer do the type-aware checking.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';

const elementFiles = ['src/element/**/*.{ts,js}', 'demo/**/*.{ts,js}'];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-docs/**', 'node_modules/**', 'coverage/**', 'custom-elements.json', '.wtr-cache/**', 'test-results/**', 'test/pack/projects/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // tsc reports undefined names in TS; for the few .js/.mjs scripts this avoids an undeclared `globals` dependency.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: elementFiles,
    ...lit.configs['flat/recommended'],
  },
  {
    files: elementFiles,
    ...wc.configs['flat/best-practice'],
    settings: { wc: { elementBaseClasses: ['LitElement'] } },
    rules: {
      ...wc.configs['flat/best-practice'].rules,
      // LitElement always defines the lifecycle callbacks, so guarding `super.connectedCallback()` is noise.
      'wc/guard-super-call': 'off',
    },
  },
  {
    // Browser tests run in Chromium, Firefox and WebKit: input goes through the shared helpers that work in all three.
    files: ['test/browser/**/*.ts'],
    ignores: ['test/browser/support/input.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='sendKeys'] Property[key.name='type']",
          message: 'Use typeKeys() from test/browser/support: WebKit collapses repeated keys typed in one action.',
        },
        {
          selector: "NewExpression[callee.name='ClipboardEvent']",
          message: 'Use pasteText() from test/browser/support: Firefox drops clipboardData given to the constructor.',
        },
      ],
    },
  },
);
