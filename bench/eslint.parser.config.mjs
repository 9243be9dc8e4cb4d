// Benchmark baseline: ESLint with no rules over the files tripwire's
// recommended preset lints, each with its language's parser only:
// TypeScript through @typescript-eslint/parser, Markdown through
// @eslint/markdown. Run with --config from the generated repository, so that
// `files` patterns are relative to it.
import markdown from '@eslint/markdown';
import tsParser from '@typescript-eslint/parser';

export default [
  { name: 'bench/ignores', ignores: ['node_modules/**'] },
  { name: 'bench/typescript', files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'], languageOptions: { parser: tsParser } },
  { name: 'bench/markdown', files: ['**/*.md'], plugins: { markdown }, language: 'markdown/gfm' },
];
