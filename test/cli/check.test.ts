import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import sarifSchema from '../schemas/sarif-2.1.0.json' with { type: 'json' };
import { rules } from '../../rules/index.js';
import { git, makeGitRepo, runCli } from '../support/repo.js';

const CONFIG = `{
  // free tests everywhere under test/, paid ones under test/evals/
  "tests": {
    "include": ["test/**/*.test.ts"],
    "paid": ["test/evals/**/*.test.ts"],
    "ids": [{ "call": "runEval", "property": "name" }],
  },
  "maps": {
    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },
    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS" },
    "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES", "require": ["test/helpers/run.ts"] },
  },
}
`;

const CLEAN = {
  'tripwire.config.json': CONFIG,
  'test/format.test.ts': `import { expect, test } from 'vitest';\nimport { format } from './helpers/format.js';\ntest('formats', () => expect(format('a')).toBe('a'));\n`,
  'test/helpers/format.ts': `export const format = (s: string) => s;\n`,
  'test/helpers/run.ts': `export function runEval(options: { name: string }) {\n  return options.name;\n}\n`,
  'test/helpers/touchfiles.ts': `export const E2E_TOUCHFILES = { answer: ['test/evals/answer.test.ts'] };\nexport const E2E_TIERS = { answer: 'gate' };\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];\n`,
  'test/evals/answer.test.ts': `import OpenAI from 'openai';\nimport { runEval } from '../helpers/run.js';\nrunEval({ name: 'answer' });\nnew OpenAI();\n`,
};

const VIOLATING = {
  ...CLEAN,
  'test/judge.test.ts': `import { test } from 'vitest';\nimport { judge } from './helpers/judge.js';\ntest('judges', async () => { await judge('x'); });\n`,
  'test/helpers/judge.ts': `import Anthropic from '@anthropic-ai/sdk';\nexport async function judge(q: string) {\n  return new Anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: q }] });\n}\n`,
};

describe('tripwire check, spawned on a real git repository', () => {
  it('exits 0 on a clean repository and says so', () => {
    const run = runCli(['check'], makeGitRepo(CLEAN));
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(new RegExp(`^✔ no problems \\(6 files, ${rules.length} rules, \\d+ms\\)\\n$`));
    expect(run.code).toBe(0);
  });

  it('exits 1 with file:line, rule id and the chain on a violation', () => {
    const run = runCli(['check', '--no-cache'], makeGitRepo(VIOLATING));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('test/judge.test.ts\n  2:1  error  free test reaches a paid call through');
    expect(run.stdout).toContain('test/judge.test.ts → judge (test/helpers/judge.ts) → @anthropic-ai/sdk');
    expect(run.stdout).toContain('no-paid-calls-in-free-tests');
    expect(run.stdout).toContain('✖ 1 problem (1 error, 0 warnings)');
  });

  it('prints exactly the documented JSON shape with --format json', () => {
    const run = runCli(['check', '--format', 'json'], makeGitRepo(VIOLATING));
    expect(run.code).toBe(1);
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output)).toEqual(['findings', 'summary']);
    expect(output.findings).toEqual([
      {
        ruleId: 'no-paid-calls-in-free-tests',
        messageId: 'transitivePaidCall',
        severity: 'error',
        file: 'test/judge.test.ts',
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 44,
        message: expect.stringContaining('test/judge.test.ts → judge (test/helpers/judge.ts) → @anthropic-ai/sdk'),
        related: [{ file: 'test/helpers/judge.ts', line: 2, column: 1, message: 'judge (test/helpers/judge.ts)' }],
      },
    ]);
    expect(output.summary).toEqual({ errors: 1, warnings: 0, files: 8, rules: rules.length, ms: expect.any(Number) });
  });

  it('prints SARIF 2.1.0 that validates against the official schema', () => {
    const run = runCli(['check', '--format', 'sarif'], makeGitRepo(VIOLATING));
    expect(run.code).toBe(1);
    const ajv = new AjvDraft04.default({ allErrors: true, strict: false });
    ajvFormats.default(ajv);
    const validate = ajv.compile(sarifSchema);
    const log = JSON.parse(run.stdout);
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    expect(log.runs[0].results[0]).toMatchObject({ ruleId: 'no-paid-calls-in-free-tests', level: 'error', properties: { messageId: 'transitivePaidCall' } });
    expect(log.runs[0].tool.driver.rules[0]).toMatchObject({
      id: 'no-paid-calls-in-free-tests',
      helpUri: expect.stringContaining('rules/no-paid-calls-in-free-tests.md'),
      messageStrings: { transitivePaidCall: { text: expect.stringContaining('free test file reaches a paid call') } },
    });
  });

  it('prints GitHub workflow commands with --format github', () => {
    const run = runCli(['check', '--format', 'github'], makeGitRepo(VIOLATING));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error file=test\/judge\.test\.ts,line=2,col=1,endLine=2,endColumn=44,title=no-paid-calls-in-free-tests::free test reaches a paid call/);
  });

  it('--max-warnings turns warnings into a failing exit code', () => {
    const dir = makeGitRepo({ ...VIOLATING, 'tripwire.config.json': CONFIG.replace(/\}\s*$/, '"rules": { "no-paid-calls-in-free-tests": "warn" } }\n') });
    expect(runCli(['check'], dir).code).toBe(0);
    expect(runCli(['check', '--max-warnings', '0'], dir).code).toBe(1);
  });

  it('reports only the given paths', () => {
    const dir = makeGitRepo(VIOLATING);
    expect(runCli(['check', 'test/format.test.ts'], dir).code).toBe(0);
    expect(runCli(['check', 'test'], dir).code).toBe(1);
  });
});

describe('what tripwire cannot evaluate', () => {
  it('exits 2 on an invalid configuration, naming the file, the key path and the expectation', () => {
    const run = runCli(['check'], makeGitRepo({ ...CLEAN, 'tripwire.config.json': '{ "tests": { "paidd": [] } }' }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('tripwire.config.json: tests.paidd: unknown key (did you mean "paid"?)');
    expect(run.stdout).toBe('');
  });

  it('exits 2 on a usage error', () => {
    const dir = makeGitRepo(CLEAN);
    expect(runCli(['check', '--format', 'xml'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown format 'xml'") });
    expect(runCli(['check', '--rule', 'no-such-rule'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown rule 'no-such-rule'") });
    expect(runCli(['check', '--frobnicate'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('--frobnicate') });
    expect(runCli(['launch'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command 'launch'") });
  });

  it('reports a file that does not parse, at the syntax error', () => {
    const run = runCli(['check', '--format', 'json'], makeGitRepo({ ...CLEAN, 'test/broken.test.ts': `import { test } from 'vitest';\ntest('x', () => {\n  const a = ;\n});\n` }));
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings).toEqual([
      { ruleId: 'parse-error', messageId: 'parseError', severity: 'error', file: 'test/broken.test.ts', line: 3, column: 13, endLine: 3, endColumn: 14, message: 'cannot parse test/broken.test.ts: Expression expected.' },
    ]);
  });

  it('reports a file it needs that is a dangling symlink once, as a link it does not follow', () => {
    const dir = makeGitRepo(CLEAN, { commit: false });
    symlinkSync('missing-target.ts', join(dir, 'test/dangling.test.ts'));
    const run = runCli(['check', '--format', 'json'], dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings).toEqual([
      {
        ruleId: 'unfollowed-symlink',
        messageId: 'unfollowedSymlink',
        severity: 'error',
        file: 'test/dangling.test.ts',
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 1,
        message: 'symlink points to nothing, not followed: test/dangling.test.ts → missing-target.ts does not exist, so nothing was checked there. Fix or remove the link.',
      },
    ]);
  });

  it('skips a tracked symlink to a directory inside the repository, reads one to a file as the file, and never follows one out of it', () => {
    const shipped = CONFIG.replace('"maps": {', '"shipped": { "include": ["skills/**", "packages/**"] },\n  "maps": {');
    const dir = makeGitRepo({ ...CLEAN, 'tripwire.config.json': shipped, 'skills/review/SKILL.md': '# Review\n', 'packages/cli/index.ts': 'export const name = "cli";\n' }, { commit: false });
    symlinkSync('../../skills', join(dir, 'packages/cli/skills'));
    symlinkSync('review/SKILL.md', join(dir, 'skills/SKILL.md'));
    const outside = makeGitRepo({ 'notes.md': '# Elsewhere\n' });
    symlinkSync(join(outside, 'notes.md'), join(dir, 'skills/notes.md'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'links');
    const run = runCli(['check', '--format', 'json'], dir);
    expect(JSON.parse(run.stdout).findings).toEqual([
      {
        ruleId: 'unfollowed-symlink',
        messageId: 'unfollowedSymlink',
        severity: 'error',
        file: 'skills/notes.md',
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 1,
        message: `symlink points outside the repository, not followed: skills/notes.md → ${join(outside, 'notes.md')}. Nothing it points to was checked; commit the file itself, or list the link in ignore.`,
      },
    ]);
    expect(JSON.parse(run.stdout).summary.files).toBe(10);
  });

  it('reports a configured glob that matches no file, at its place in the config', () => {
    const config = CONFIG.replace('"paid": ["test/evals/**/*.test.ts"]', '"paid": ["test/evals/**/*.test.ts", "test/e2e/**/*.test.ts"]');
    const run = runCli(['check', '--format', 'json'], makeGitRepo({ ...CLEAN, 'tripwire.config.json': config }));
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings).toEqual([
      { ruleId: 'unmatched-glob', messageId: 'unmatchedGlob', severity: 'error', file: 'tripwire.config.json', line: 5, column: 41, endLine: 5, endColumn: 64, message: "tests.paid[1] 'test/e2e/**/*.test.ts' matches no file" },
    ]);
  });
});

describe('globs with many wildcards', () => {
  /** The CLEAN harness with these globs added to the touchfile entry of 'answer' (line 1 of the map). */
  function withMapGlobs(globs: string[], extra: Record<string, string> = {}): { dir: string; column: (glob: string) => number } {
    const map = CLEAN['test/helpers/touchfiles.ts'].replace("answer: ['test/evals/answer.test.ts']", `answer: ['test/evals/answer.test.ts', ${globs.map((glob) => `'${glob}'`).join(', ')}]`);
    const dir = makeGitRepo({ ...CLEAN, 'test/helpers/touchfiles.ts': map, ...extra });
    return { dir, column: (glob) => map.indexOf(`'${glob}'`) + 1 };
  }

  it("match in bounded time when the repository's own map holds one: the 29-character ?* glob is a dead glob, not a stalled run", () => {
    // Matching it against one 40-character name ran past a minute, so a pull request could stall CI.
    // The kill is only a safety net for that code; the findings are what is asserted.
    const miss = 'test/?*?*?*?*?*?*?*?*?*?*?*?*x';
    const hit = 'test/?*?*?*?*?*?*?*?*?*?*?*?*a';
    const { dir, column } = withMapGlobs([miss, hit], { [`test/${'a'.repeat(40)}`]: 'data\n' });
    const run = runCli(['check', '--format', 'json', '--no-cache'], dir, {}, { killAfterMs: 60_000 });
    const findings: { ruleId: string; messageId: string; file: string; line: number; column: number }[] = JSON.parse(run.stdout || '{"findings":[]}').findings;
    expect(findings.map((f) => `${f.ruleId}/${f.messageId} ${f.file}:${f.line}:${f.column}`)).toEqual([`touchfiles-cover-paid-tests/deadGlob test/helpers/touchfiles.ts:1:${column(miss)}`]);
  });

  it('refuse a glob with more than 3 unbounded wildcards in one segment, once, where it is written: in a map and in the configuration', () => {
    const tooComplex = 'test/*a*a*a*a*b';
    const { dir, column } = withMapGlobs([tooComplex]);
    writeFileSync(join(dir, 'tripwire.config.json'), CONFIG.replace('"maps": {', '"ignore": ["vendor/*-*-*-*.ts"],\n  "maps": {'));
    const run = runCli(['check', '--format', 'json', '--no-cache'], dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings.map((f: { ruleId: string; messageId: string; file: string; line: number; column: number; message: string }) => `${f.ruleId}/${f.messageId} ${f.file}:${f.line}:${f.column} ${f.message}`)).toEqual([
      `glob-too-complex/globTooComplex test/helpers/touchfiles.ts:1:${column(tooComplex)} the touchfile glob of 'answer' '${tooComplex}' is too complex to match: 5 unbounded wildcards in the path segment '*a*a*a*a*b' (at most 3). It matches nothing until it is simplified.`,
      "glob-too-complex/globTooComplex tripwire.config.json:8:14 ignore[0] 'vendor/*-*-*-*.ts' is too complex to match: 4 unbounded wildcards in the path segment '*-*-*-*.ts' (at most 3). It matches nothing until it is simplified.",
    ]);
  });
});

describe('what tripwire cannot do', () => {
  it('exits 2 with one line, no stack, when git is not on PATH', () => {
    // It printed "internal error" and the stack of `spawn git ENOENT`.
    const dir = makeGitRepo(CLEAN);
    const noGit = mkdtempSync(join(tmpdir(), 'tripwire-no-git-'));
    const stderr = 'tripwire: git is not on PATH: tripwire lists the repository and reads its history with git. Install git, or add its directory to PATH.\n';
    expect(runCli(['check'], dir, { PATH: noGit })).toEqual({ code: 2, stdout: '', stderr });
    expect(runCli(['check', '--no-cache', '--base', 'main'], dir, { PATH: noGit })).toEqual({ code: 2, stdout: '', stderr });
    expect(runCli(['select', '--base', 'main'], dir, { PATH: noGit })).toEqual({ code: 2, stdout: '', stderr });
  });

  it('creates the directory -o names (issue 15, defect 8), and exits 2 naming the file as given when it cannot be written, leaving no temporary file', () => {
    const dir = makeGitRepo(CLEAN);
    expect(runCli(['check', '-o', 'reports/sarif/report.sarif', '--format', 'sarif'], dir)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(JSON.parse(readFileSync(join(dir, 'reports/sarif/report.sarif'), 'utf8'))).toMatchObject({ version: '2.1.0' });
    expect(runCli(['check', '-o', 'test'], dir)).toEqual({ code: 2, stdout: '', stderr: 'tripwire: cannot write test: EISDIR: illegal operation on a directory\n' });
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes the report where -o says when it can', () => {
    const dir = makeGitRepo(CLEAN);
    expect(runCli(['check', '-o', 'report.txt'], dir)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(dir, 'report.txt'), 'utf8')).toMatch(/^✔ no problems/);
  });
});

describe('tripwire explain', () => {
  it('places GitHub annotations and SARIF locations relative to the git top level when the root is a package below it (issue 15, defect 9)', () => {
    const dir = makeGitRepo(Object.fromEntries(Object.entries(VIOLATING).map(([path, text]) => [`packages/app/${path}`, text])));
    const github = runCli(['check', '--cwd', 'packages/app', '--format', 'github'], dir);
    expect(github.code).toBe(1);
    expect(github.stdout).toMatch(/^::error file=packages\/app\/test\/judge\.test\.ts,line=2,/);
    const sarif = runCli(['check', '--cwd', 'packages/app', '--format', 'sarif'], dir);
    const run = JSON.parse(sarif.stdout).runs[0];
    expect(run.results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'packages/app/test/judge.test.ts', uriBaseId: '%SRCROOT%' });
    expect(new URL(run.originalUriBaseIds['%SRCROOT%'].uri).pathname).toBe(`${pathToFileURL(dir).pathname}/`);
  });

  it('prints the rule doc', () => {
    const run = runCli(['explain', 'no-paid-calls-in-free-tests'], makeGitRepo(CLEAN));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# no-paid-calls-in-free-tests\n/);
  });

  it('prints a core check\'s section, whose SARIF helpUri names that documentation (issue 15, defect 11)', () => {
    const dir = makeGitRepo(CLEAN);
    const run = runCli(['explain', 'parse-error'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# parse-error \(a core check\)\n/);
    expect(run.stdout).toContain('`parseError`');
    expect(run.stdout).not.toContain('## read-error');
    const sarif = JSON.parse(runCli(['check', '--no-cache', '--format', 'sarif'], dir).stdout) as { runs: { tool: { driver: { rules: { id: string; helpUri?: string }[] } } }[] };
    const rules = sarif.runs[0]?.tool.driver.rules ?? [];
    expect(rules.find((rule) => rule.id === 'parse-error')?.helpUri).toMatch(/\/rules\/core-checks\.md#parse-error$/);
  });

  it('names the core checks among the known ids when the id is unknown', () => {
    const run = runCli(['explain', 'parse-eror'], makeGitRepo(CLEAN));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('parse-error');
  });
});
