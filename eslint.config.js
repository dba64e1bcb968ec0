// ESLint 9 flat config. Syntax-only typescript-eslint rules (no type information) keep `npm run lint` fast;
// `tsc --noEmit` and lit-analyzer do the type-aware checking.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';

const elementFiles = ['src/element/**/*.{ts,js}', 'demo/**/*.{ts,js}'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'custom-elements.json', '.wtr-cache/**', 'test-results/**', 'test/pack/projects/**'] },
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
);
