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
//
// STRYKER_SUITES (comma-separated test files) narrows the run to those suites:
// a mutant in a rule's check is covered by nearly every suite here (the
// fixture index and other rules' tests run every rule), so on a loaded 2-core
// machine a full run of one rule file takes over 90 minutes. A narrowed run
// measures what those suites alone kill: a lower bound of the full score.
const narrowed = process.env.STRYKER_SUITES?.split(',').filter(Boolean);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: narrowed ?? ['test/rules/**/*.test.ts', 'test/engine/**/*.test.ts', 'test/model/**/*.test.ts', 'test/eslint/**/*.test.ts', 'test/meta.test.ts', 'test/cli/fix.test.ts'],
    exclude: [...(base.test?.exclude ?? []), 'test/eslint/concurrency.test.ts'],
  },
});
