import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel, check } from '../../src/engine/index.js';
import { git, makeGitRepo, runCli } from '../support/repo.js';
import { paidList, paidTestFiles } from '../../src/analysis/paid-list.js';

/** Two paid suites the repository lists in code, a third matched by no list, and a free unit test. */
const TESTS = {
  'test/unit.test.ts': `import { test } from 'vitest';\ntest('adds', () => {});\n`,
  'test/skill-e2e-review.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('reviews', () => { new OpenAI(); });\n`,
  'test/llm-judge.test.ts': `import Anthropic from '@anthropic-ai/sdk';\nimport { test } from 'vitest';\ntest('judges', () => { new Anthropic(); });\n`,
};

const SUITES = `export const PAID_SUITES = ['test/skill-e2e-*.test.ts', 'test/llm-*.test.ts'];\n`;

/** The configuration with `paid` as `tests.paid`, pretty-printed so that locations are on their own lines. */
function config(paid: unknown): string {
  const rules = { 'touchfiles-cover-paid-tests': 'off', 'tiers-cover-paid-tests': 'off', 'global-touchfiles-present': 'off' };
  return `${JSON.stringify({ tests: { include: ['test/**/*.test.ts'], paid }, rules }, null, 2)}\n`;
}

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await check({ cwd: makeGitRepo({ ...TESTS, ...files }), cache: false });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.ruleId} ${f.messageId}`);
}

async function paidFiles(files: Record<string, string>): Promise<string[]> {
  const { model } = await buildModel({ cwd: makeGitRepo({ ...TESTS, ...files }), cache: false });
  return paidTestFiles(model);
}

/** What no-paid-calls-in-free-tests reports when the two suites count as free. */
const SUITES_AS_FREE = [
  'test/llm-judge.test.ts:1:1-1:43 no-paid-calls-in-free-tests paidImport',
  'test/skill-e2e-review.test.ts:1:1-1:29 no-paid-calls-in-free-tests paidImport',
];

describe('tests.paid as a reference to the repository’s own list', () => {
  it('reads an exported array of glob literals as the paid globs', async () => {
    const files = { 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }), 'test/helpers/suites.ts': SUITES };
    expect(await paidFiles(files)).toEqual(['test/llm-judge.test.ts', 'test/skill-e2e-review.test.ts']);
    expect(await findings(files)).toEqual([]);
  });

  it('follows the list through spreads and imports, as the maps are followed', async () => {
    const files = {
      'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }),
      'test/helpers/e2e.ts': `export const E2E_SUITES = ['test/skill-e2e-*.test.ts'] as const;\n`,
      'test/helpers/suites.ts': `import { E2E_SUITES } from './e2e.js';\nexport const PAID_SUITES = [...E2E_SUITES, 'test/llm-*.test.ts'];\n`,
    };
    expect(await paidFiles(files)).toEqual(['test/llm-judge.test.ts', 'test/skill-e2e-review.test.ts']);
    expect(await findings(files)).toEqual([]);
  });

  it('reads a list at a dot path of a JSON file', async () => {
    const files = {
      'tripwire.config.json': config({ file: 'test/suites.json', path: 'evals.paid' }),
      'test/suites.json': `{ "evals": { "paid": ["test/skill-e2e-*.test.ts", "test/llm-*.test.ts"] } }\n`,
    };
    expect(await paidFiles(files)).toEqual(['test/llm-judge.test.ts', 'test/skill-e2e-review.test.ts']);
    expect(await findings(files)).toEqual([]);
  });

  it('mixes literal globs and references in one list', async () => {
    const files = {
      'tripwire.config.json': config(['test/extra-*.test.ts', { file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }]),
      'test/helpers/suites.ts': SUITES,
      'test/extra-search.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('searches', () => { new OpenAI(); });\n`,
    };
    expect(await paidFiles(files)).toEqual(['test/extra-search.test.ts', 'test/llm-judge.test.ts', 'test/skill-e2e-review.test.ts']);
    expect(await findings(files)).toEqual([]);
  });

  it('treats as free a test that neither the literal globs nor the referenced list match', async () => {
    const files = {
      'tripwire.config.json': config([{ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }]),
      'test/helpers/suites.ts': SUITES,
      'test/extra-search.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('searches', () => { new OpenAI(); });\n`,
    };
    expect(await findings(files)).toEqual(['test/extra-search.test.ts:1:1-1:29 no-paid-calls-in-free-tests paidImport']);
  });

  it('evaluates the reference once per run: every rule sees the same list', async () => {
    const cwd = makeGitRepo({ ...TESTS, 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }), 'test/helpers/suites.ts': SUITES });
    const { model } = await buildModel({ cwd, cache: false });
    const first = paidList(model);
    expect(paidList(model)).toBe(first);
    expect(first.globs).toEqual(['test/skill-e2e-*.test.ts', 'test/llm-*.test.ts']);
    expect(first.files).toEqual(['test/helpers/suites.ts']);
  });
});

describe('a tests.paid reference that cannot be read is one finding, and its globs count as none', () => {
  it('reports a missing file at the reference’s "file" in the configuration', async () => {
    const files = { 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }) };
    expect(await findings(files)).toEqual([...SUITES_AS_FREE, 'tripwire.config.json:7:15-7:39 unresolved-paid-list missingPaidListFile']);
  });

  it('reports a missing export at the reference’s "export" in the configuration', async () => {
    const files = { 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }), 'test/helpers/suites.ts': `export const SUITES = ['test/llm-*.test.ts'];\n` };
    expect(await findings(files)).toEqual([...SUITES_AS_FREE, 'tripwire.config.json:8:17-8:30 unresolved-paid-list missingPaidListExport']);
  });

  it('reports a missing JSON dot path at the reference’s "path" in the configuration', async () => {
    const files = { 'tripwire.config.json': config({ file: 'test/suites.json', path: 'evals.paid' }), 'test/suites.json': `{ "evals": { "free": ["test/unit.test.ts"] } }\n` };
    expect(await findings(files)).toEqual([...SUITES_AS_FREE, 'tripwire.config.json:8:15-8:27 unresolved-paid-list missingPaidListExport']);
  });

  it('reports a list that cannot be evaluated once, at its first node that cannot, and uses none of it', async () => {
    const files = {
      'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }),
      'test/helpers/suites.ts': `import { readdirSync } from 'node:fs';\nexport const PAID_SUITES = ['test/skill-e2e-*.test.ts', ...readdirSync('test'), String(process.env.EXTRA)];\n`,
    };
    const result = await check({ cwd: makeGitRepo({ ...TESTS, ...files }), cache: false });
    const unresolved = result.findings.filter((f) => f.ruleId === 'unresolved-paid-list');
    expect(unresolved).toEqual([
      {
        ruleId: 'unresolved-paid-list',
        messageId: 'unevaluablePaidList',
        severity: 'error',
        file: 'test/helpers/suites.ts',
        line: 2,
        column: 60,
        endLine: 2,
        endColumn: 79,
        message:
          "tests.paid (test/helpers/suites.ts PAID_SUITES) cannot be evaluated statically: cannot evaluate a call to readdirSync() statically (and 1 more). Until it is fixed it marks no test paid, so the tests it lists are checked as free. Write the list as an exported const array of string literals; spreads of other such lists are followed.",
      },
    ]);
    expect(result.findings.filter((f) => f.ruleId !== 'unresolved-paid-list').map((f) => f.file)).toEqual(['test/llm-judge.test.ts', 'test/skill-e2e-review.test.ts']);
  });

  it('reports a mutable binding at the reference’s "export", where the list is named', async () => {
    const files = { 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }), 'test/helpers/suites.ts': `export let PAID_SUITES = ['test/skill-e2e-*.test.ts', 'test/llm-*.test.ts'];\n` };
    expect(await findings(files)).toEqual([...SUITES_AS_FREE, 'tripwire.config.json:8:17-8:30 unresolved-paid-list unevaluablePaidList']);
  });

  it('reports a value that is not a list of strings at the value, not at each item', async () => {
    const files = { 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }), 'test/helpers/suites.ts': `export const PAID_SUITES = { e2e: 'test/skill-e2e-*.test.ts', llm: 'test/llm-*.test.ts' };\n` };
    expect(await findings(files)).toEqual(['test/helpers/suites.ts:1:28-1:90 unresolved-paid-list malformedPaidList', ...SUITES_AS_FREE]);
  });

  it('reports a list with an item that is not a string at that item', async () => {
    const files = { 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }), 'test/helpers/suites.ts': `export const PAID_SUITES = ['test/skill-e2e-*.test.ts', 2, 'test/llm-*.test.ts'];\n` };
    expect(await findings(files)).toEqual(['test/helpers/suites.ts:1:57-1:58 unresolved-paid-list malformedPaidList', ...SUITES_AS_FREE]);
  });

  it('keeps the literal globs and the readable references of a mixed list when one reference fails', async () => {
    const files = {
      'tripwire.config.json': config(['test/llm-*.test.ts', { file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }]),
      'test/helpers/suites.ts': `export const PAID_SUITES = globSuites();\n`,
    };
    expect(await findings(files)).toEqual([
      'test/helpers/suites.ts:1:28-1:40 unresolved-paid-list unevaluablePaidList',
      'test/skill-e2e-review.test.ts:1:1-1:29 no-paid-calls-in-free-tests paidImport',
    ]);
  });

  it('reports a glob of the referenced list that matches no file where the list writes it', async () => {
    const files = { 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }), 'test/helpers/suites.ts': `export const PAID_SUITES = ['test/skill-e2e-*.test.ts', 'test/llm-*.test.ts', 'test/live-*.test.ts'];\n` };
    expect(await findings(files)).toEqual(['test/helpers/suites.ts:1:79-1:100 unmatched-glob unmatchedGlob']);
  });

  it('reports a parse error in the referenced file, which no test imports', async () => {
    const files = { 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }), 'test/helpers/suites.ts': `${SUITES}export const BROKEN = [;\n` };
    expect((await findings(files)).filter((line) => line.includes('parse-error'))).toEqual(['test/helpers/suites.ts:2:24-2:25 parse-error parseError']);
  });
});

describe('narrowing the repository’s list changes what check treats as paid', () => {
  const files = { ...TESTS, 'tripwire.config.json': config({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }), 'test/helpers/suites.ts': SUITES };
  const NARROWED = `export const PAID_SUITES = ['test/skill-e2e-*.test.ts'];\n`;

  it('reports the suite the list no longer names as a free test reaching a paid call (the CLI, with its result cache)', () => {
    const cwd = makeGitRepo(files);
    const before = runCli(['check', '--format', 'json'], cwd);
    expect(before.code).toBe(0);
    writeFileSync(join(cwd, 'test/helpers/suites.ts'), NARROWED);
    git(cwd, 'commit', '-qam', 'narrow the paid suites');
    const after = runCli(['check', '--format', 'json'], cwd);
    expect(after.code).toBe(1);
    const output = JSON.parse(after.stdout) as { findings: { ruleId: string; messageId: string; file: string; line: number }[] };
    expect(output.findings.map((f) => `${f.file}:${f.line} ${f.ruleId} ${f.messageId}`)).toEqual(['test/llm-judge.test.ts:1 no-paid-calls-in-free-tests paidImport']);
  });

  it('reports it with --staged too, though the staged change touches only the list', () => {
    const cwd = makeGitRepo(files);
    writeFileSync(join(cwd, 'test/helpers/suites.ts'), NARROWED);
    git(cwd, 'add', 'test/helpers/suites.ts');
    const staged = runCli(['check', '--staged', '--no-cache', '--format', 'json'], cwd);
    expect(staged.code).toBe(1);
    const output = JSON.parse(staged.stdout) as { findings: { ruleId: string; file: string }[] };
    expect(output.findings.map((f) => `${f.file} ${f.ruleId}`)).toEqual(['test/llm-judge.test.ts no-paid-calls-in-free-tests']);
  });
});
