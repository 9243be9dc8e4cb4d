import { defineConfig } from 'eslint/config';
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // .stryker-tmp/ holds Stryker's sandbox copies of the whole tree while a mutation run is going.
  { ignores: ['dist/**', 'fixtures/**', 'node_modules/**', 'bench/out/**', '.stryker-tmp/**'] },
  tseslint.configs.strict,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // The rule surface. The plugin's rule-side checks read a rule module's source (`export default { meta, create }`);
  // ours are generated from rules/*.ts by src/eslint/rules.ts, so test/eslint/rule-modules.test.ts checks the
  // generated modules against the same requirements. Its test-side checks apply as they are to our RuleTester files.
  { ...eslintPlugin.configs.tests, files: ['test/eslint/**/*.ts'] },
);
