import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRepo } from '../support/fixture-repo.js';
import { git, runCli, writeFiles, type CliRun } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

// Issue 13, "What it must show": one fixture per way a repository draws its free/paid line, each asserting the exact keys init writes.

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

interface WrittenConfig {
  tests?: { include?: string[]; [key: string]: unknown };
  maps?: unknown;
  rules?: Record<string, string>;
}

interface Checked {
  code: number | null;
  stderr: string;
  findings: { ruleId: string; messageId: string; file: string; line: number }[];
}

interface Layout {
  init: CliRun;
  config: WrittenConfig;
  check: Checked;
}

/** `fixtures/<name>` in a fresh repository (plus `extra` files, committed), then `init` and `check` with what it wrote. */
function initAndCheck(name: string, extra: Record<string, string> = {}): Layout {
  const dir = fixtureRepo(name);
  temps.push(dir);
  if (Object.keys(extra).length > 0) {
    writeFiles(dir, extra);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'neighbour');
  }
  const init = runCli(['init', '--no-cache'], dir);
  const config: WrittenConfig = JSON.parse(readFileSync(join(dir, 'tripwire.config.json'), 'utf8'));
  const run = runCli(['check', '--no-cache', '--format', 'json'], dir);
  const report: { findings: Checked['findings'] } = JSON.parse(run.stdout);
  const findings = report.findings.map((finding) => ({ ruleId: finding.ruleId, messageId: finding.messageId, file: finding.file, line: finding.line }));
  return { init, config, check: { code: run.code, stderr: run.stderr, findings } };
}

/** The keys of `tests` other than `include`, which has a test of its own. */
function withoutInclude(tests: WrittenConfig['tests']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(tests ?? {}).filter(([key]) => key !== 'include'));
}

describe('evals-ts-harness: bun:test, `bun test` for tests/*.test.ts, `test:evals` for tests/*.evals.ts, maps in tests/helpers/touchfiles.ts', () => {
  let layout: Layout;
  beforeAll(() => {
    layout = initAndCheck('init/evals-ts-harness');
  });

  it('init succeeds and reads both lanes', () => {
    expect(layout.init.stderr).toBe('');
    expect(layout.init.code).toBe(0);
    expect(layout.init.stdout).toContain('paid: `npm run test:evals`, 2 files (`test:evals` is named as a paid suite)');
    expect(layout.init.stdout).toContain('free: `npm run test`, 3 files (a script not named as a paid suite)');
  });

  // Not one glob per eval file's name prefix, which would leave the next eval (tests/translate.evals.ts) outside tests.include:
  // the paid lane's own glob covers every eval.
  it('tests.include covers the free tests and the evals by their patterns, not by the names of today\'s evals', () => {
    expect(layout.config.tests?.include).toEqual(['tests/**/*.test.ts', 'tests/*.evals.ts']);
  });

  it('tests.paid is the glob of `test:evals` (tests/eval-report.test.ts, a free test with a paid-looking name, stays free), and the ids are evalCase\'s first argument', () => {
    expect(withoutInclude(layout.config.tests)).toEqual({
      paid: ['tests/*.evals.ts'],
      ids: [{ call: 'evalCase', arg: 0 }],
    });
  });

  it('finds the touchfile map, the tier map and the global list, and leaves the three map rules on', () => {
    expect(layout.config.maps).toEqual({
      touchfiles: { file: 'tests/helpers/touchfiles.ts', export: 'EVAL_TOUCHFILES' },
      tiers: { file: 'tests/helpers/touchfiles.ts', export: 'EVAL_TIERS', values: ['gate', 'periodic'] },
      globals: { file: 'tests/helpers/touchfiles.ts', export: 'GLOBAL_TOUCHFILES', require: ['tests/helpers/eval.ts', 'tests/helpers/sample-notes.ts'] },
    });
    expect(layout.config.rules).toBeUndefined();
  });

  it('check then runs clean, the map rules included', () => {
    expect(layout.check.stderr).toBe('');
    expect(layout.check.findings).toEqual([]);
    expect(layout.check.code).toBe(0);
  });
});

describe('pnpm-workspace-delegating: root `pnpm -r test`, each package with its own vitest; packages/cli has `test:e2e` with its own config', () => {
  let layout: Layout;
  beforeAll(() => {
    layout = initAndCheck('init/pnpm-workspace-delegating');
  });

  it('init succeeds and follows `pnpm -r test` into both packages', () => {
    expect(layout.init.stderr).toBe('');
    expect(layout.init.code).toBe(0);
    expect(layout.init.stdout).toContain('paid: `packages/cli: npm run test:e2e`, 2 files (`test:e2e` is named as a paid suite)');
    // One free lane per package that `pnpm -r test` reaches (core's two unit tests, cli's two).
    expect(layout.init.stdout.match(/free: `npm run test`, 2 files \(a script not named as a paid suite\)/g)).toHaveLength(2);
    expect(layout.init.stdout).not.toContain('no test file found');
  });

  it('tests.include covers every package\'s tests', () => {
    expect(layout.config.tests?.include).toEqual(['packages/**/*.test.ts']);
  });

  it('tests.paid is the cli e2e suite only: not the unit tests `pnpm -r test` runs, not core\'s keyless `test:integration`, and `test:unit` (reached from nowhere) adds nothing', () => {
    expect(withoutInclude(layout.config.tests)).toEqual({ paid: ['packages/cli/e2e/**/*.test.ts'] });
  });

  it('without a touchfile map, the map rules are off in the file and no maps are written', () => {
    expect(layout.config.maps).toBeUndefined();
    expect(layout.config.rules).toEqual({
      'touchfiles-cover-paid-tests': 'off',
      'tiers-cover-paid-tests': 'off',
      'global-touchfiles-present': 'off',
    });
  });

  it('check then runs clean', () => {
    expect(layout.check.stderr).toBe('');
    expect(layout.check.findings).toEqual([]);
    expect(layout.check.code).toBe(0);
  });
});

describe('turbo-per-package-configs: npm workspaces, root `turbo run test`, no root config, each package\'s own vitest include', () => {
  let layout: Layout;
  beforeAll(() => {
    layout = initAndCheck('init/turbo-per-package-configs');
  });

  it('init succeeds and finds the tests of all three packages', () => {
    expect(layout.init.stderr).toBe('');
    expect(layout.init.code).toBe(0);
    expect(layout.init.stdout).not.toContain('no test file found');
    expect(layout.init.stdout).toContain('5 test files under apps/, libs/');
    // `turbo run test` reaches the `test` script of each package: three free lanes.
    expect(layout.init.stdout).toMatch(/lanes +3 free, 0 paid/);
  });

  it('tests.include covers apps/web src/**/*.spec.ts, libs/tokenizer tests/**/*.test.ts and libs/prompt-kit test/*.unit.ts', () => {
    // Each package's own include, not a broader guess (`libs/prompt-kit/test/**/*.ts` would also take a future helper for a test).
    expect(layout.config.tests?.include).toEqual(['apps/web/src/**/*.spec.ts', 'libs/prompt-kit/test/*.unit.ts', 'libs/tokenizer/tests/**/*.test.ts']);
  });

  it('nothing is paid: libs/tokenizer/tests/live/ (a streaming counter, run by `turbo run test`, no gate) is a free test', () => {
    expect(withoutInclude(layout.config.tests)).toEqual({});
    expect(layout.config.maps).toBeUndefined();
    expect(layout.config.rules).toBeUndefined();
  });

  it('check then runs clean', () => {
    expect(layout.check.stderr).toBe('');
    expect(layout.check.findings).toEqual([]);
    expect(layout.check.code).toBe(0);
  });
});

describe('ci-lanes: `npm test` leaves test/live out; a CI job with OPENAI_API_KEY runs it with vitest.live.config.ts', () => {
  let layout: Layout;
  beforeAll(() => {
    layout = initAndCheck('init/ci-lanes');
  });

  it('init succeeds and says the paid lane is the CI job that receives OPENAI_API_KEY; a job with only CODECOV_TOKEN is free', () => {
    expect(layout.init.stderr).toBe('');
    expect(layout.init.code).toBe(0);
    expect(layout.init.stdout).toContain('paid: `.github/workflows/ci.yml:35 job live model tests`, 2 files (it receives OPENAI_API_KEY)');
    expect(layout.init.stdout).toContain('2 files: `.github/workflows/ci.yml:35 job live model tests` runs it (it receives OPENAI_API_KEY)');
    expect(layout.init.stdout).toContain('free: `.github/workflows/ci.yml:19 job unit`, 2 files (it receives no API key)');
    expect(layout.init.stdout).toContain('free: `.github/workflows/coverage.yml:19 job coverage`, 2 files (it receives no API key)');
  });

  it('tests.include covers the unit and the live tests', () => {
    expect(layout.config.tests?.include).toEqual(['test/**/*.test.ts']);
  });

  it('tests.paid is the include of vitest.live.config.ts', () => {
    expect(withoutInclude(layout.config.tests)).toEqual({ paid: ['test/live/**/*.test.ts'] });
  });

  it('without a touchfile map, the map rules are off in the file', () => {
    expect(layout.config.maps).toBeUndefined();
    expect(layout.config.rules).toEqual({
      'touchfiles-cover-paid-tests': 'off',
      'tiers-cover-paid-tests': 'off',
      'global-touchfiles-present': 'off',
    });
  });

  it('check then runs clean: the live tests import the SDK, and they are paid', () => {
    expect(layout.check.stderr).toBe('');
    expect(layout.check.findings).toEqual([]);
    expect(layout.check.code).toBe(0);
  });
});

describe('free-test-reads-key: a free test sets ANTHROPIC_API_KEY and asserts the config builder passes it on; evals/ is run by `evals`', () => {
  let layout: Layout;
  beforeAll(() => {
    layout = initAndCheck('init/free-test-reads-key');
  });

  it('init succeeds and names no free test as reaching a paid call', () => {
    expect(layout.init.stderr).toBe('');
    expect(layout.init.code).toBe(0);
    expect(layout.init.stdout).not.toContain('stays free');
  });

  // Not one glob per eval file: vitest.evals.config.ts says `evals/**/*.eval.ts`, and so does tests.include, so the next eval is a test too.
  it('tests.include is the two configs\' own includes', () => {
    expect(layout.config.tests?.include).toEqual(['evals/**/*.eval.ts', 'src/**/*.test.ts']);
  });

  it('tests.paid is the evals only: src/config.test.ts, which reads the key it set, stays free', () => {
    expect(withoutInclude(layout.config.tests)).toEqual({ paid: ['evals/**/*.eval.ts'] });
  });

  it('without a touchfile map, the map rules are off in the file', () => {
    expect(layout.config.maps).toBeUndefined();
    expect(layout.config.rules).toEqual({
      'touchfiles-cover-paid-tests': 'off',
      'tiers-cover-paid-tests': 'off',
      'global-touchfiles-present': 'off',
    });
  });

  it('check reports nothing for the test that reads the key it set', () => {
    expect(layout.check.stderr).toBe('');
    expect(layout.check.findings).toEqual([]);
    expect(layout.check.code).toBe(0);
  });

  it('neighbour: a free test that reads the real key (set by nobody) stays free, init names it, and check reports the read', () => {
    const neighbour = initAndCheck('init/free-test-reads-key', {
      'src/key-present.test.ts': "import { expect, it } from 'vitest';\nimport { buildClientConfig } from './config.js';\n\nconst key = process.env.ANTHROPIC_API_KEY;\n\nit('builds a config from the real key', () => {\n  expect(buildClientConfig({ ANTHROPIC_API_KEY: key }).apiKey).toMatch(/^sk-ant-/);\n});\n",
    });
    expect(neighbour.init.code).toBe(0);
    expect(neighbour.init.stdout).toContain('src/key-present.test.ts stays free: `npm run test` runs it, yet it reaches a paid call (reads ANTHROPIC_API_KEY)');
    expect(withoutInclude(neighbour.config.tests)).toEqual({ paid: ['evals/**/*.eval.ts'] });
    expect(neighbour.check.stderr).toBe('');
    expect(neighbour.check.findings).toEqual([{ ruleId: 'no-paid-calls-in-free-tests', messageId: 'paidCall', file: 'src/key-present.test.ts', line: 4 }]);
    expect(neighbour.check.code).toBe(1);
  });
});

describe('node-test-nested-package: root `node --test test/`; compat/ (not a workspace) type-checks consumer code with `tsc --noEmit`', () => {
  let layout: Layout;
  beforeAll(() => {
    layout = initAndCheck('init/node-test-nested-package');
  });

  it('init succeeds and counts compat/ as type tests', () => {
    expect(layout.init.stderr).toBe('');
    expect(layout.init.code).toBe(0);
    expect(layout.init.stdout).toContain('the `test` script of compat/package.json type-checks them (tsc --noEmit)');
  });

  it('tests.include holds the node tests and the compat sources; bench/, whose `test` also runs code, is not a type test', () => {
    expect(layout.config.tests?.include).toEqual(['compat/**/*.ts', 'test/**/*.test.js']);
  });

  it('nothing is paid, no maps, no rule turned off', () => {
    expect(withoutInclude(layout.config.tests)).toEqual({});
    expect(layout.config.maps).toBeUndefined();
    expect(layout.config.rules).toBeUndefined();
  });

  it('check then runs clean', () => {
    expect(layout.check.stderr).toBe('');
    expect(layout.check.findings).toEqual([]);
    expect(layout.check.code).toBe(0);
  });
});

describe('init on a harness that keeps its paid globs in an exported array its runner reads', () => {
  let dir: string;
  let run: CliRun;
  beforeAll(() => {
    dir = fixtureRepo('init/paid-list-export');
    temps.push(dir);
    run = runCli(['init', '--no-cache'], dir);
  });

  it('finds the suites through the program `test:llm` runs, and points tests.paid at the repository\'s own list', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('scripts/run-llm-suites.ts starts the suites of LLM_SUITES (test/helpers/suites.ts)');
    const config: WrittenConfig = JSON.parse(readFileSync(join(dir, 'tripwire.config.json'), 'utf8'));
    expect(config.tests).toEqual({ include: ['test/**/*.test.ts'], paid: { file: 'test/helpers/suites.ts', export: 'LLM_SUITES' } });
    const check = runCli(['check', '--no-cache', '--format', 'json'], dir);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  });

  it('so that narrowing the list is what check sees: the suite it no longer names is a free test reaching a paid call', () => {
    writeFileSync(join(dir, 'test/helpers/suites.ts'), "export const LLM_SUITES = ['test/llm-define.test.ts'];\nexport const UNIT_SUITES = ['test/glossary.test.ts'];\n");
    const check = runCli(['check', '--no-cache', '--format', 'json'], dir);
    const report: { findings: Checked['findings'] } = JSON.parse(check.stdout);
    expect(report.findings.map((f) => [f.ruleId, f.messageId, f.file, f.line])).toEqual([['no-paid-calls-in-free-tests', 'paidImport', 'test/llm-consistency.test.ts', 1]]);
    expect(check.code).toBe(1);
  });
});
