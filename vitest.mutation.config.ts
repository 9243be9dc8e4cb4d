import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The suites Stryker runs (stryker.config.json): those that run rules/,
// src/analysis/ and src/engine/ in process. The CLI, hook, package and
// guarantee suites spawn the built dist/, which Stryker's sandbox does not
// mutate: they cannot kill a mutant and only cost time. test/cli/fix.test.ts
// plans fixes in process (and asserts their kinds), so it stays;
// test/cli/timing.test.ts runs every rule in process but asserts only the exit
// code and the shape of its tables, so it would run for every mutant and kill
// none that the suites here do not.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/rules/**/*.test.ts', 'test/engine/**/*.test.ts', 'test/model/**/*.test.ts', 'test/eslint/**/*.test.ts', 'test/meta.test.ts', 'test/cli/fix.test.ts'],
    exclude: [...(base.test?.exclude ?? []), 'test/eslint/concurrency.test.ts'],
  },
});
