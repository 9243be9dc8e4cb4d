import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeGitRepo, runCli } from '../support/repo.js';

const CONFIG = '{ "tests": { "include": ["test/**/*.test.ts"] } }';

describe('the baseline', () => {
  it('keeps known findings quiet across line shifts, reports a new one, and says when it can shrink', () => {
    const dir = makeGitRepo({
      'tripwire.config.json': CONFIG,
      'test/a.test.ts': `import OpenAI from 'openai';\n`,
      'test/b.test.ts': `import Anthropic from '@anthropic-ai/sdk';\n`,
      'test/c.test.ts': `const key = process.env.OPENAI_API_KEY;\n`,
    });
    const update = runCli(['check', '--update-baseline'], dir);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('baseline written: 3 entries');
    const baseline = JSON.parse(readFileSync(join(dir, '.tripwire/baseline.json'), 'utf8'));
    expect(baseline.version).toBe(2);
    expect(baseline.findings.map((f: { ruleId: string; messageId: string; file: string; count: number }) => `${f.ruleId} ${f.messageId} ${f.file} ${f.count}`)).toEqual([
      'no-paid-calls-in-free-tests paidImport test/a.test.ts 1',
      'no-paid-calls-in-free-tests paidImport test/b.test.ts 1',
      'no-paid-calls-in-free-tests paidCall test/c.test.ts 1',
    ]);

    // An unrelated edit above a finding shifts its line: still known.
    writeFileSync(join(dir, 'test/a.test.ts'), `// setup\n\nimport OpenAI from 'openai';\n`);
    const shifted = runCli(['check'], dir);
    expect(shifted.code).toBe(0);
    expect(shifted.stdout).toContain('3 known findings in the baseline not reported');

    // A fourth violation is new.
    writeFileSync(join(dir, 'test/d.test.ts'), `import { GoogleGenAI } from '@google/genai';\n`);
    const fourth = runCli(['check', '--format', 'json'], dir);
    expect(fourth.code).toBe(1);
    const output = JSON.parse(fourth.stdout);
    expect(output.findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toEqual(['test/d.test.ts:1']);
    expect(output.summary.baselined).toBe(3);

    // Fixing a known one: the baseline can shrink.
    writeFileSync(join(dir, 'test/c.test.ts'), `const key = 'fake';\n`);
    const fixed = runCli(['check'], dir);
    expect(fixed.stdout).toContain('1 baseline entry no longer match: the baseline can shrink');
    expect(runCli(['check', '--no-baseline', '--format', 'json'], dir).stdout).toContain('test/a.test.ts');
  });

  it('a run narrowed by --rule or paths rewrites and judges only its own part of the baseline (issue 15, defect 4)', () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] }, "shipped": { "include": ["skills/**/*.md"] } }',
      'test/a.test.ts': `import OpenAI from 'openai';\n`,
      'test/b.test.ts': `import Anthropic from '@anthropic-ai/sdk';\n`,
      'skills/review.md': 'Read [the guide](docs/missing.md).\n',
    });
    expect(runCli(['check', '--update-baseline'], dir).code).toBe(0);
    const entries = (): string[] => JSON.parse(readFileSync(join(dir, '.tripwire/baseline.json'), 'utf8')).findings.map((f: { ruleId: string; file: string }) => `${f.ruleId} ${f.file}`);
    const all = ['no-dangling-references skills/review.md', 'no-paid-calls-in-free-tests test/a.test.ts', 'no-paid-calls-in-free-tests test/b.test.ts'];
    expect(entries()).toEqual(all);

    // --rule: the other rules' entries stay, and are not called fixable.
    const ruled = runCli(['check', '--rule', 'no-paid-calls-in-free-tests', '--update-baseline'], dir);
    expect(ruled.code).toBe(0);
    expect(entries()).toEqual(all);
    expect(runCli(['check', '--rule', 'no-paid-calls-in-free-tests'], dir).stdout).not.toContain('can shrink');

    // A path: entries of other files stay; a fixed finding inside the path leaves.
    writeFileSync(join(dir, 'test/b.test.ts'), `const model = 'fake';\n`);
    expect(runCli(['check', 'test/a.test.ts'], dir).stdout).not.toContain('can shrink');
    expect(runCli(['check', '--update-baseline', 'test/b.test.ts'], dir).code).toBe(0);
    expect(entries()).toEqual(['no-dangling-references skills/review.md', 'no-paid-calls-in-free-tests test/a.test.ts']);
  });

  it('still reads a version 1 baseline, whose entries name no message id', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/a.test.ts': `import OpenAI from 'openai';\n` });
    expect(runCli(['check', '--update-baseline'], dir).code).toBe(0);
    const path = join(dir, '.tripwire/baseline.json');
    const written = JSON.parse(readFileSync(path, 'utf8'));
    const v1 = { version: 1, findings: written.findings.map((entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'messageId'))) };
    writeFileSync(path, JSON.stringify(v1));
    const run = runCli(['check'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 known finding in the baseline not reported');
  });

  it('exits 2 on a baseline file that is not valid', () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, '.tripwire/baseline.json': '{ "version": 9 }' });
    const run = runCli(['check'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('.tripwire/baseline.json');
  });
});

interface Reported {
  code: number | null;
  findings: string[];
  baselined: number;
}

function checkJson(dir: string, ...args: string[]): Reported {
  const run = runCli(['check', '--format', 'json', ...args], dir);
  const output = JSON.parse(run.stdout) as { findings: { ruleId: string; messageId: string; file: string; line: number; column: number }[]; summary: { baselined?: number } };
  return { code: run.code, findings: output.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId}/${f.messageId}`), baselined: output.summary.baselined ?? 0 };
}

/** `main` with one known finding in its baseline, and a branch `feature` checked out from it. */
function adopted(files: Record<string, string> = {}): string {
  const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/old.test.ts': `import OpenAI from 'openai';\n`, 'test/fine.test.ts': `export const x = 1;\n`, ...files }, { commit: false });
  expect(runCli(['check', '--update-baseline'], dir).code).toBe(0);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'adopt tripwire with a baseline');
  git(dir, 'checkout', '-q', '-b', 'feature');
  return dir;
}

function commitAll(dir: string, message: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

describe('with --base, the baseline only shrinks in a change', () => {
  it('a change that adds a violation and baselines it: the added entry is a finding at its line, and the violation is reported', () => {
    const dir = adopted();
    writeFileSync(join(dir, 'test/new.test.ts'), `import Anthropic from '@anthropic-ai/sdk';\n`);
    expect(runCli(['check', '--update-baseline'], dir).stdout).toContain('baseline written: 2 entries');
    commitAll(dir, 'a new violation, baselined');
    const baseline = readFileSync(join(dir, '.tripwire/baseline.json'), 'utf8').split('\n');
    // The new entry sorts first (test/new < test/old): its object opens on line 4, indented 4.
    expect(baseline[3]).toBe('    {');
    expect(baseline[6]).toBe('      "file": "test/new.test.ts",');
    const run = runCli(['check', '--base', 'main', '--format', 'json'], dir);
    expect(run.code).toBe(1);
    const output = JSON.parse(run.stdout) as { findings: { ruleId: string; messageId: string; file: string; line: number; column: number; message: string; related?: unknown[] }[]; summary: { baselined?: number } };
    expect(output.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId}/${f.messageId}`)).toEqual([
      '.tripwire/baseline.json:4:5 baseline-growth/baselineEntryAdded',
      'test/new.test.ts:1:1 no-paid-calls-in-free-tests/paidImport',
    ]);
    expect(output.findings[0]?.message).toBe(
      'this change adds a baseline entry for no-paid-calls-in-free-tests/paidImport in test/new.test.ts: a change cannot accept its own finding, so the entry suppresses nothing. Fix the finding and drop the entry; the baseline only shrinks in a change.',
    );
    expect(output.findings[0]?.related).toEqual([{ file: 'test/new.test.ts', line: 1, column: 1, message: 'the finding the entry would hide' }]);
    // What main already accepted stays accepted.
    expect(output.summary.baselined).toBe(1);
    // An entry of a rule the run leaves out is not this run's to judge.
    expect(checkJson(dir, '--base', 'main', '--rule', 'no-dangling-references')).toEqual({ code: 0, findings: [], baselined: 0 });
  });

  it('the same branch without --base: the baseline suppresses as written (a local run compares with nothing)', () => {
    const dir = adopted();
    writeFileSync(join(dir, 'test/new.test.ts'), `import Anthropic from '@anthropic-ai/sdk';\n`);
    runCli(['check', '--update-baseline'], dir);
    commitAll(dir, 'a new violation, baselined');
    expect(checkJson(dir)).toEqual({ code: 0, findings: [], baselined: 2 });
  });

  it('a change that leaves the baseline alone, or shrinks it after a fix, passes', () => {
    const dir = adopted();
    writeFileSync(join(dir, 'test/fine.test.ts'), `export const x = 2;\n`);
    commitAll(dir, 'an unrelated edit');
    expect(checkJson(dir, '--base', 'main')).toEqual({ code: 0, findings: [], baselined: 1 });

    writeFileSync(join(dir, 'test/old.test.ts'), `export const fixed = true;\n`);
    runCli(['check', '--update-baseline'], dir);
    commitAll(dir, 'fix the known finding and shrink the baseline');
    expect(JSON.parse(readFileSync(join(dir, '.tripwire/baseline.json'), 'utf8')).findings).toEqual([]);
    expect(checkJson(dir, '--base', 'main')).toEqual({ code: 0, findings: [], baselined: 0 });
  });

  it('a change that raises the count of an entry: the raised count is a finding, the count main held still suppresses', () => {
    const dir = adopted({ 'test/keys.test.ts': `const key = process.env.OPENAI_API_KEY;\n` });
    writeFileSync(join(dir, 'test/keys.test.ts'), `const key = process.env.OPENAI_API_KEY;\nconst key = process.env.OPENAI_API_KEY;\n`);
    runCli(['check', '--update-baseline'], dir);
    commitAll(dir, 'the same violation twice, baselined');
    const entry = (JSON.parse(readFileSync(join(dir, '.tripwire/baseline.json'), 'utf8')) as { findings: { file: string; count: number }[] }).findings.find((f) => f.file === 'test/keys.test.ts');
    expect(entry?.count).toBe(2);
    const run = runCli(['check', '--base', 'main', '--format', 'json'], dir);
    const output = JSON.parse(run.stdout) as { findings: { ruleId: string; file: string; line: number; message: string }[]; summary: { baselined?: number } };
    expect(run.code).toBe(1);
    expect(output.findings.map((f) => `${f.file}:${f.line} ${f.ruleId}`)).toEqual(['.tripwire/baseline.json:4 baseline-growth', 'test/keys.test.ts:2 no-paid-calls-in-free-tests']);
    expect(output.findings[0]?.message).toContain('raises by 1 the count of the baseline entry for no-paid-calls-in-free-tests/paidCall in test/keys.test.ts');
    expect(output.summary.baselined).toBe(2);
  });

  it('a baseline upgraded from version 1 (entries without message ids) to version 2 adds nothing', () => {
    const dir = adopted();
    const path = join(dir, '.tripwire/baseline.json');
    const written = JSON.parse(readFileSync(path, 'utf8'));
    const v1 = { version: 1, findings: written.findings.map((entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'messageId'))) };
    writeFileSync(path, JSON.stringify(v1));
    git(dir, 'commit', '-q', '-am', 'a version 1 baseline');
    git(dir, 'checkout', '-q', '-b', 'upgrade');
    runCli(['check', '--update-baseline'], dir);
    commitAll(dir, 'upgrade the baseline');
    expect(JSON.parse(readFileSync(path, 'utf8')).version).toBe(2);
    expect(checkJson(dir, '--base', 'feature')).toEqual({ code: 0, findings: [], baselined: 1 });
  });

  it('a baseline git ignores was never committed at the merge base: its entries are all new', () => {
    const dir = adopted({ '.gitignore': 'ignored-baseline.json\n' });
    writeFileSync(join(dir, 'tripwire.config.json'), '{ "tests": { "include": ["test/**/*.test.ts"] }, "baseline": "ignored-baseline.json" }');
    runCli(['check', '--update-baseline'], dir);
    commitAll(dir, 'point at an ignored baseline');
    expect(git(dir, 'ls-files', 'ignored-baseline.json')).toBe('');
    expect(checkJson(dir, '--base', 'main')).toEqual({ code: 1, findings: ['ignored-baseline.json:4:5 baseline-growth/baselineEntryAdded', 'test/old.test.ts:1:1 no-paid-calls-in-free-tests/paidImport'], baselined: 0 });
  });

  it('a change that moves the baseline to a new path: every entry there is new to the merge base', () => {
    const dir = adopted();
    writeFileSync(join(dir, 'tripwire.config.json'), '{ "tests": { "include": ["test/**/*.test.ts"] }, "baseline": "known.json" }');
    runCli(['check', '--update-baseline'], dir);
    commitAll(dir, 'a baseline of its own');
    expect(checkJson(dir, '--base', 'main')).toEqual({ code: 1, findings: ['known.json:4:5 baseline-growth/baselineEntryAdded', 'test/old.test.ts:1:1 no-paid-calls-in-free-tests/paidImport'], baselined: 0 });
  });
});
