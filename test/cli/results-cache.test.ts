import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { CLI_BIN, git, makeGitRepo, runCli, writeFiles } from '../support/repo.js';

const REPO = {
  'tripwire.config.json': JSON.stringify({
    tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/*.test.ts'] },
    rules: { 'touchfiles-cover-paid-tests': 'off', 'tiers-cover-paid-tests': 'off', 'global-touchfiles-present': 'off' },
  }),
  'test/judge.test.ts': `import { judge } from './helpers/judge.js';\njudge();\n`,
  'test/format.test.ts': `export const x = 1;\n`,
  'test/helpers/judge.ts': `import OpenAI from 'openai';\nexport const judge = () => new OpenAI();\n`,
  'test/evals/a.test.ts': `import OpenAI from 'openai';\n`,
};

interface Report {
  code: number | null;
  cached: boolean;
  findings: string[];
}

function check(dir: string, cacheLocation: string, ...args: string[]): Report {
  return checkWith(undefined, dir, cacheLocation, ...args);
}

function checkWith(bin: string | undefined, dir: string, cacheLocation: string, ...args: string[]): Report {
  const result = runCli(['check', '--format', 'json', '--cache-location', cacheLocation, ...args], dir, {}, bin === undefined ? {} : { bin });
  const output = JSON.parse(result.stdout) as { findings: { file: string; line: number; ruleId: string }[]; summary: { cached?: boolean } };
  return { code: result.code, cached: output.summary.cached === true, findings: output.findings.map((f) => `${f.file}:${f.line} ${f.ruleId}`) };
}

function setup(files: Record<string, string> = REPO): { dir: string; cache: string } {
  return { dir: makeGitRepo(files), cache: mkdtempSync(join(tmpdir(), 'tripwire-results-')) };
}

const JUDGE = 'test/judge.test.ts:1 no-paid-calls-in-free-tests';

describe('the result cache', () => {
  it('answers a repeat run with nothing changed from the stored verdict, identical to the computed one', () => {
    const { dir, cache } = setup();
    const first = check(dir, cache);
    expect(first).toEqual({ code: 1, cached: false, findings: [JUDGE] });
    expect(check(dir, cache)).toEqual({ ...first, cached: true });
  });

  it('recomputes after a tracked file changes, an untracked file appears, or a tracked file is deleted', () => {
    const { dir, cache } = setup();
    check(dir, cache);
    writeFileSync(join(dir, 'test/format.test.ts'), `import OpenAI from 'openai';\nnew OpenAI();\n`);
    expect(check(dir, cache)).toEqual({ code: 1, cached: false, findings: ['test/format.test.ts:1 no-paid-calls-in-free-tests', JUDGE] });

    writeFiles(dir, { 'test/extra.test.ts': `import Anthropic from '@anthropic-ai/sdk';\n` });
    expect(check(dir, cache)).toMatchObject({ cached: false, findings: expect.arrayContaining(['test/extra.test.ts:1 no-paid-calls-in-free-tests']) });

    rmSync(join(dir, 'test/judge.test.ts'));
    const after = check(dir, cache);
    expect(after.cached).toBe(false);
    expect(after.findings).not.toContain(JUDGE);
  });

  it('recomputes when the configuration changes', () => {
    const { dir, cache } = setup();
    check(dir, cache);
    writeFileSync(join(dir, 'tripwire.config.json'), JSON.stringify({ ...JSON.parse(REPO['tripwire.config.json']), rules: { 'no-paid-calls-in-free-tests': 'off', 'touchfiles-cover-paid-tests': 'off', 'tiers-cover-paid-tests': 'off', 'global-touchfiles-present': 'off' } }));
    expect(check(dir, cache)).toEqual({ code: 0, cached: false, findings: [] });
  });

  it('keeps one verdict per set of options: a --rule run neither serves nor evicts the full run', () => {
    const { dir, cache } = setup();
    check(dir, cache);
    expect(check(dir, cache, '--rule', 'no-test-carve-outs')).toEqual({ code: 0, cached: false, findings: [] });
    expect(check(dir, cache, '--rule', 'no-test-carve-outs').cached).toBe(true);
    expect(check(dir, cache)).toEqual({ code: 1, cached: true, findings: [JUDGE] });
  });

  it('recomputes when a file the run read outside the git listing changes (an ignored baseline)', () => {
    const { dir, cache } = setup({ ...REPO, '.gitignore': '.tripwire/baseline.json\n' });
    expect(runCli(['check', '--update-baseline', '--cache-location', cache], dir).code).toBe(0);
    expect(existsSync(join(dir, '.tripwire/baseline.json'))).toBe(true);
    expect(check(dir, cache)).toEqual({ code: 0, cached: false, findings: [] });
    expect(check(dir, cache).cached).toBe(true);
    // The baseline is ignored by git, so only the recorded outside read notices it is gone.
    rmSync(join(dir, '.tripwire/baseline.json'));
    expect(check(dir, cache)).toEqual({ code: 1, cached: false, findings: [JUDGE] });
  });

  it('keys --staged runs by the index: staging a change recomputes, an unstaged edit does not', () => {
    const { dir, cache } = setup();
    expect(check(dir, cache, '--staged')).toMatchObject({ cached: false });
    expect(check(dir, cache, '--staged')).toMatchObject({ cached: true });
    writeFileSync(join(dir, 'test/format.test.ts'), `import OpenAI from 'openai';\n`);
    expect(check(dir, cache, '--staged')).toMatchObject({ cached: true, findings: [] });
    git(dir, 'add', 'test/format.test.ts');
    expect(check(dir, cache, '--staged')).toEqual({ code: 1, cached: false, findings: ['test/format.test.ts:1 no-paid-calls-in-free-tests'] });
  });

  it('keys --base runs by the index too: staging a moved file turns the deletion git saw into a rename', () => {
    const { dir, cache } = setup();
    const messages = (): { cached: boolean; messages: string[] } => {
      const result = runCli(['check', '--format', 'json', '--base', 'HEAD', '--rule', 'no-dangling-references', '--cache-location', cache], dir);
      const output = JSON.parse(result.stdout) as { findings: { file: string; message: string }[]; summary: { cached?: boolean } };
      return { cached: output.summary.cached === true, messages: output.findings.map((f) => `${f.file} ${f.message.replace(/ since \w+ /, ' since BASE ')}`) };
    };
    // Moved without git: the new path is untracked, so the diff has a deletion and an addition.
    renameSync(join(dir, 'test/helpers/judge.ts'), join(dir, 'test/helpers/grader.ts'));
    expect(messages()).toEqual({ cached: false, messages: ['test/judge.test.ts names ./helpers/judge.js (test/helpers/judge.ts), which the diff since BASE deleted: update or remove the reference.'] });
    // Same files, same contents; only the index differs, and git's rename detection pairs the two paths.
    git(dir, 'add', 'test/helpers/grader.ts');
    expect(messages()).toEqual({ cached: false, messages: ['test/judge.test.ts names ./helpers/judge.js (test/helpers/judge.ts), which the diff since BASE renamed to test/helpers/grader.ts: update the reference.'] });
    expect(messages().cached).toBe(true);
  });

  it("recomputes when tripwire's own code changes: a rebuilt bundle never serves an older build's verdict", () => {
    const { dir, cache } = setup();
    // The package as installed: its manifest, the rule docs and the CLI's bundle, with this checkout's dependencies.
    const pkg = mkdtempSync(join(tmpdir(), 'tripwire-package-'));
    cpSync(join(PACKAGE_ROOT, 'package.json'), join(pkg, 'package.json'));
    cpSync(join(PACKAGE_ROOT, 'rules'), join(pkg, 'rules'), { recursive: true, filter: (source) => !/\.[cm]?[jt]s$/.test(source) });
    mkdirSync(join(pkg, dirname(CLI_BIN)), { recursive: true });
    cpSync(join(PACKAGE_ROOT, dirname(CLI_BIN)), join(pkg, dirname(CLI_BIN)), { recursive: true, preserveTimestamps: true });
    symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    const bin = join(pkg, CLI_BIN);
    expect(checkWith(bin, dir, cache)).toEqual({ code: 1, cached: false, findings: [JUDGE] });
    expect(checkWith(bin, dir, cache).cached).toBe(true);
    // The bundle the bin runs (scripts/bundle.mjs), rebuilt.
    const bundle = join(dirname(bin), 'tripwire.cjs');
    expect(existsSync(bundle)).toBe(true);
    appendFileSync(bundle, '// rebuilt\n');
    expect(checkWith(bin, dir, cache)).toEqual({ code: 1, cached: false, findings: [JUDGE] });
    rmSync(pkg, { recursive: true, force: true });
  });

  it('is neither read nor written with --no-cache', () => {
    const { dir, cache } = setup();
    runCli(['check', '--no-cache', '--cache-location', cache], dir);
    expect(readdirSync(cache)).toEqual([]);
    check(dir, cache);
    const again = runCli(['check', '--format', 'json', '--no-cache', '--cache-location', cache], dir);
    expect(JSON.parse(again.stdout).summary.cached).toBeUndefined();
  });
});
