import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { writeAll } from '../../src/cli/commands/fix.js';
import { planFixes } from '../../src/engine/fix-plan.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { git, makeGitRepo, runCli } from '../support/repo.js';
import { MAP_HARNESS_CONFIG as CONFIG } from '../support/map-harness.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

// Each fix kind on a known-bad harness written here, in a real git repository, through the spawned CLI:
// the dry run's preview, then --write, then `check`: the finding is gone and the map still parses.
// Beside each, a neighbour where the fix would need a judgement, and none is offered.

const CLEAN_MAP = `export const E2E_TOUCHFILES = {
  'review-basic': ['test/evals/review.test.ts', 'src/review/**'],
};

export const E2E_TIERS = {
  'review-basic': 'gate',
};

export const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];
`;

const HARNESS = {
  'tripwire.config.json': CONFIG,
  'test/helpers/touchfiles.ts': CLEAN_MAP,
  'test/helpers/run.ts': 'export async function runEval(options: { name: string }, body: () => Promise<void>): Promise<void> {\n  await body();\n}\n',
  'test/helpers/judge.ts': 'export const judge = (answer: string): boolean => answer.length > 0;\n',
  'src/review/review.ts': 'export const review = (diff: string): string => diff;\n',
  'test/evals/review.test.ts': "import { review } from '../../src/review/review.js';\nimport { runEval } from '../helpers/run.js';\n\nrunEval({ name: 'review-basic' }, async () => {\n  review('x');\n});\n",
};

/** A paid test that gates itself on 'periodic' and imports a helper no global covers. */
const GATED_SEARCH_TEST =
  "import { judge } from '../helpers/judge.js';\nimport { runEval } from '../helpers/run.js';\n\nif (process.env.EVALS_TIER === 'periodic') {\n  runEval({ name: 'search-basic' }, async () => {\n    judge('x');\n  });\n}\n";

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function repo(files: Record<string, string>): string {
  const dir = makeGitRepo({ ...HARNESS, ...files });
  temps.push(dir);
  return dir;
}

function findings(dir: string, args: string[] = []): string[] {
  const run = runCli(['check', '--format', 'json', '--no-cache', ...args], dir);
  const report: { findings: { ruleId: string; messageId: string; file: string; line: number; column: number }[] } = JSON.parse(run.stdout);
  return report.findings.map((f) => `${f.ruleId}/${f.messageId} ${f.file}:${f.line}:${f.column}`);
}

function parseErrors(dir: string, file: string): number {
  const source = ts.createSourceFile(file, readFileSync(join(dir, file), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return 'parseDiagnostics' in source && Array.isArray(source.parseDiagnostics) ? source.parseDiagnostics.length : -1;
}

describe('tripwire fix: a missing touchfile entry and a missing tier', () => {
  it('previews the entry with the test file and its import closure, and the tier its file gates on; --write makes check clean', () => {
    const dir = repo({ 'test/evals/search.test.ts': GATED_SEARCH_TEST });
    expect(findings(dir)).toEqual([
      'tiers-cover-paid-tests/paidIdWithoutTier test/evals/search.test.ts:5:3',
      'touchfiles-cover-paid-tests/missingTouchfileEntry test/evals/search.test.ts:5:3',
    ]);
    const dry = runCli(['fix', '--no-cache'], dir);
    expect(dry.stderr).toBe('');
    expect(dry.stdout).toBe(`test/evals/search.test.ts:5:3  paidIdWithoutTier → addTier: add 'search-basic': 'periodic' to E2E_TIERS (the tier its test file gates itself on)  tiers-cover-paid-tests
test/evals/search.test.ts:5:3  missingTouchfileEntry → addTouchfileEntry: add 'search-basic' to E2E_TOUCHFILES with 2 globs: test/evals/search.test.ts, test/helpers/judge.ts  touchfiles-cover-paid-tests

--- a/test/helpers/touchfiles.ts
+++ b/test/helpers/touchfiles.ts
@@ -1,8 +1,10 @@
 export const E2E_TOUCHFILES = {
   'review-basic': ['test/evals/review.test.ts', 'src/review/**'],
+  'search-basic': ['test/evals/search.test.ts', 'test/helpers/judge.ts'],
 };
 
 export const E2E_TIERS = {
   'review-basic': 'gate',
+  'search-basic': 'periodic',
 };
 

2 fixes in 1 file; nothing written (dry run). Apply them with: tripwire fix --write
`);
    expect(dry.code).toBe(1);
    expect(readFileSync(join(dir, 'test/helpers/touchfiles.ts'), 'utf8')).toBe(CLEAN_MAP);

    const write = runCli(['fix', '--write', '--no-cache'], dir);
    expect(write.stdout).toMatch(/\nfixed: 2 fixes in 1 file\n$/);
    expect(write.code).toBe(0);
    expect(findings(dir)).toEqual([]);
    expect(parseErrors(dir, 'test/helpers/touchfiles.ts')).toBe(0);
    expect(runCli(['fix', '--no-cache'], dir)).toMatchObject({ code: 0, stdout: 'nothing to fix\n' });
  });

  it('writes in the style of the neighbours: double quotes, identifier keys, no trailing comma', () => {
    const dir = repo({
      'test/evals/search.test.ts': GATED_SEARCH_TEST,
      'test/helpers/touchfiles.ts':
        'export const E2E_TOUCHFILES = {\n    reviewBasic: ["test/evals/review.test.ts", "src/review/**"]\n};\n\nexport const E2E_TIERS = {\n    reviewBasic: "gate"\n};\n\nexport const GLOBAL_TOUCHFILES = ["test/helpers/touchfiles.ts", "test/helpers/run.ts"];\n',
      'test/evals/review.test.ts': "import { review } from '../../src/review/review.js';\nimport { runEval } from '../helpers/run.js';\n\nrunEval({ name: 'reviewBasic' }, async () => {\n  review('x');\n});\n",
    });
    expect(runCli(['fix', '--write', '--no-cache'], dir).code).toBe(0);
    expect(readFileSync(join(dir, 'test/helpers/touchfiles.ts'), 'utf8')).toBe(
      'export const E2E_TOUCHFILES = {\n    reviewBasic: ["test/evals/review.test.ts", "src/review/**"],\n    "search-basic": ["test/evals/search.test.ts", "test/helpers/judge.ts"]\n};\n\nexport const E2E_TIERS = {\n    reviewBasic: "gate",\n    "search-basic": "periodic"\n};\n\nexport const GLOBAL_TOUCHFILES = ["test/helpers/touchfiles.ts", "test/helpers/run.ts"];\n',
    );
    expect(findings(dir)).toEqual([]);
  });

  it('keeps CRLF line ends, and fills an empty map with an indented entry', () => {
    const dir = repo({
      'test/evals/search.test.ts': GATED_SEARCH_TEST,
      'test/helpers/touchfiles.ts': CLEAN_MAP.replace("export const E2E_TIERS = {\n  'review-basic': 'gate',\n};", "export const E2E_TIERS = {};").replace(/\n/g, '\r\n'),
    });
    expect(runCli(['fix', '--write', '--no-cache'], dir).code).toBe(0);
    const written = readFileSync(join(dir, 'test/helpers/touchfiles.ts'), 'utf8');
    expect(written).toContain("  'review-basic': ['test/evals/review.test.ts', 'src/review/**'],\r\n  'search-basic': ['test/evals/search.test.ts', 'test/helpers/judge.ts'],\r\n};");
    expect(written).toContain("export const E2E_TIERS = {\r\n  'search-basic': 'periodic',\r\n};");
    expect(written.replace(/\r\n/g, '')).not.toContain('\n');
    // The empty tier map now holds one id; the other id has touchfiles and no tier, with no self-gate to take it from.
    expect(findings(dir)).toEqual(['tiers-cover-paid-tests/missingTier test/helpers/touchfiles.ts:2:3']);
  });

  it('offers no entry for an id that two test files declare: whose globs it takes is a judgement', () => {
    const dir = repo({ 'test/evals/search.test.ts': GATED_SEARCH_TEST, 'test/evals/search-again.test.ts': GATED_SEARCH_TEST });
    expect(findings(dir)).toContain('touchfiles-cover-paid-tests/missingTouchfileEntry test/evals/search-again.test.ts:5:3');
    const dry = runCli(['fix', '--no-cache'], dir);
    expect(dry.stdout).not.toContain('addTouchfileEntry');
    expect(dry.stdout).toContain("add 'search-basic': 'periodic' to E2E_TIERS");
  });

  it('offers no tier for a test that does not gate itself (never a guess), but still the touchfile entry', () => {
    const dir = repo({ 'test/evals/search.test.ts': "import { runEval } from '../helpers/run.js';\n\nrunEval({ name: 'search-basic' }, async () => {});\n" });
    const dry = runCli(['fix', '--no-cache'], dir);
    expect(dry.stdout).toContain('missingTouchfileEntry → addTouchfileEntry');
    expect(dry.stdout).not.toContain('addTier');
    expect(runCli(['fix', '--write', '--no-cache'], dir).code).toBe(0);
    // The entry went in, so the id now lacks a tier at its key: reported, with no fix.
    expect(findings(dir)).toEqual(['tiers-cover-paid-tests/missingTier test/helpers/touchfiles.ts:3:3']);
    expect(runCli(['fix', '--no-cache'], dir).stdout).toBe('nothing to fix: 1 finding has no mechanical fix (tripwire check lists them)\n');
  });

  it('offers no entry for a map with a spread, nor for one with a computed key', () => {
    for (const map of [
      "const BASE = { 'review-basic': ['test/evals/review.test.ts', 'src/review/**'] };\nexport const E2E_TOUCHFILES = {\n  ...BASE,\n};\n\nexport const E2E_TIERS = { 'review-basic': 'gate' };\n\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];\n",
      "const REVIEW = 'review-basic';\nexport const E2E_TOUCHFILES = {\n  [REVIEW]: ['test/evals/review.test.ts', 'src/review/**'],\n};\n\nexport const E2E_TIERS = { 'review-basic': 'gate' };\n\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];\n",
    ]) {
      const dir = repo({ 'test/evals/search.test.ts': GATED_SEARCH_TEST, 'test/helpers/touchfiles.ts': map });
      expect(findings(dir)).toContain('touchfiles-cover-paid-tests/missingTouchfileEntry test/evals/search.test.ts:5:3');
      const dry = runCli(['fix', '--no-cache'], dir);
      expect(dry.stdout).not.toContain('addTouchfileEntry');
      // The tier map beside it is a plain literal: its fix is still offered.
      expect(dry.stdout).toContain("add 'search-basic': 'periodic' to E2E_TIERS");
    }
  });

  it('offers no fix for a JSON map', () => {
    const dir = repo({
      'tripwire.config.json': CONFIG.replace('{ "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" }', '{ "file": "test/touchfiles.json", "path": "touchfiles" }'),
      'test/touchfiles.json': '{ "touchfiles": { "review-basic": ["test/evals/review.test.ts", "src/review/**"] } }\n',
      'test/evals/search.test.ts': GATED_SEARCH_TEST,
    });
    expect(findings(dir)).toContain('touchfiles-cover-paid-tests/missingTouchfileEntry test/evals/search.test.ts:5:3');
    expect(runCli(['fix', '--no-cache'], dir).stdout).not.toContain('addTouchfileEntry');
  });
});

describe('tripwire fix: an orphan key', () => {
  it('removes the entry with its line and comment, and then its tier', () => {
    const dir = repo({
      'test/helpers/touchfiles.ts':
        "export const E2E_TOUCHFILES = {\n  'gone-eval': ['src/review/**'], // retired\n  'review-basic': ['test/evals/review.test.ts', 'src/review/**'],\n};\n\nexport const E2E_TIERS = {\n  'gone-eval': 'periodic',\n  'review-basic': 'gate',\n};\n\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];\n",
    });
    expect(findings(dir)).toEqual(['touchfiles-cover-paid-tests/orphanKey test/helpers/touchfiles.ts:2:3']);
    const dry = runCli(['fix', '--no-cache'], dir);
    expect(dry.stdout).toContain("test/helpers/touchfiles.ts:2:3  orphanKey → removeOrphanKey: remove the entry 'gone-eval' from E2E_TOUCHFILES  touchfiles-cover-paid-tests\n");
    // Once the key is gone its tier is an orphan too: the next round removes it, in the same preview.
    expect(dry.stdout).toContain("then, once fixed: test/helpers/touchfiles.ts:6:16  orphanTier → removeOrphanTier: remove the entry 'gone-eval' from E2E_TIERS  tiers-cover-paid-tests\n");
    expect(dry.stdout).toContain("@@ -1,9 +1,7 @@\n export const E2E_TOUCHFILES = {\n-  'gone-eval': ['src/review/**'], // retired\n   'review-basic'");
    expect(dry.code).toBe(1);
    expect(runCli(['fix', '--write', '--no-cache'], dir).code).toBe(0);
    expect(readFileSync(join(dir, 'test/helpers/touchfiles.ts'), 'utf8')).toBe(CLEAN_MAP);
    expect(findings(dir)).toEqual([]);
  });

  it('removes the last entry of a map without trailing commas with the comma before it', () => {
    const dir = repo({
      'test/helpers/touchfiles.ts':
        "export const E2E_TOUCHFILES = {\n  'review-basic': ['test/evals/review.test.ts', 'src/review/**'],\n  'gone-eval': ['src/review/**']\n};\n\nexport const E2E_TIERS = {\n  'review-basic': 'gate'\n};\n\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];\n",
    });
    expect(runCli(['fix', '--write', '--no-cache'], dir).code).toBe(0);
    expect(readFileSync(join(dir, 'test/helpers/touchfiles.ts'), 'utf8')).toBe(
      "export const E2E_TOUCHFILES = {\n  'review-basic': ['test/evals/review.test.ts', 'src/review/**']\n};\n\nexport const E2E_TIERS = {\n  'review-basic': 'gate'\n};\n\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];\n",
    );
    expect(findings(dir)).toEqual([]);
  });

  it('leaves an orphan key that a spread brings in from another map', () => {
    const dir = repo({
      'test/helpers/touchfiles.ts':
        "const RETIRED = { 'gone-eval': ['src/review/**'] };\nexport const E2E_TOUCHFILES = {\n  ...RETIRED,\n  'review-basic': ['test/evals/review.test.ts', 'src/review/**'],\n};\n\nexport const E2E_TIERS = {\n  'review-basic': 'gate',\n};\n\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];\n",
    });
    expect(findings(dir)).toContain('touchfiles-cover-paid-tests/orphanKey test/helpers/touchfiles.ts:1:19');
    expect(runCli(['fix', '--no-cache'], dir)).toMatchObject({ code: 0, stdout: 'nothing to fix: 2 findings have no mechanical fix (tripwire check lists them)\n' });
  });
});

describe('tripwire fix: the map file missing from the globals', () => {
  it('appends it to the list', () => {
    const dir = repo({ 'test/helpers/touchfiles.ts': CLEAN_MAP.replace("['test/helpers/touchfiles.ts', 'test/helpers/run.ts']", "['test/helpers/run.ts']") });
    expect(findings(dir)).toEqual(['global-touchfiles-present/mapFileNotGlobal test/helpers/touchfiles.ts:9:34']);
    const dry = runCli(['fix', '--no-cache'], dir);
    expect(dry.stdout).toContain("-export const GLOBAL_TOUCHFILES = ['test/helpers/run.ts'];\n+export const GLOBAL_TOUCHFILES = ['test/helpers/run.ts', 'test/helpers/touchfiles.ts'];\n");
    expect(runCli(['fix', '--write', '--no-cache'], dir).code).toBe(0);
    expect(findings(dir)).toEqual([]);
    expect(parseErrors(dir, 'test/helpers/touchfiles.ts')).toBe(0);
  });

  it('offers nothing when the list is built with a spread', () => {
    const dir = repo({ 'test/helpers/touchfiles.ts': CLEAN_MAP.replace("['test/helpers/touchfiles.ts', 'test/helpers/run.ts']", "[...['test/helpers/run.ts']]") });
    expect(findings(dir)).toEqual(['global-touchfiles-present/mapFileNotGlobal test/helpers/touchfiles.ts:9:34']);
    expect(runCli(['fix', '--no-cache'], dir).code).toBe(0);
  });
});

describe('tripwire fix --base: a path git renamed', () => {
  function renamed(): string {
    const dir = repo({
      'test/helpers/touchfiles.ts': CLEAN_MAP.replace("'src/review/**'", "'src/review/**', 'test/helpers/judge.ts'"),
      'test/evals/review.test.ts': "import { review } from '../../src/review/review.js';\nimport { judge } from '../helpers/judge.js';\nimport { runEval } from '../helpers/run.js';\n\nrunEval({ name: 'review-basic' }, async () => {\n  judge(review('x'));\n});\n",
      'src/review/paths.ts': 'export const JUDGE = "test/helpers/judge.ts";\n',
    });
    git(dir, 'checkout', '-q', '-b', 'feature');
    git(dir, 'mv', 'test/helpers/judge.ts', 'test/helpers/grader.ts');
    writeFileSync(join(dir, 'test/evals/review.test.ts'), readFileSync(join(dir, 'test/evals/review.test.ts'), 'utf8').replace('helpers/judge.js', 'helpers/grader.js'));
    git(dir, 'commit', '-q', '-am', 'rename the judge');
    return dir;
  }

  it('replaces the literal in the map and in code, keeping each one\'s quotes', () => {
    const dir = renamed();
    expect(findings(dir, ['--base', 'main'])).toEqual([
      'no-dangling-references/removedFileReference src/review/paths.ts:1:22',
      'touchfiles-cover-paid-tests/importUncovered test/evals/review.test.ts:2:1',
      'no-dangling-references/removedFileReference test/helpers/touchfiles.ts:2:66',
      'touchfiles-cover-paid-tests/deadGlob test/helpers/touchfiles.ts:2:66',
    ]);
    const dry = runCli(['fix', '--base', 'main', '--no-cache'], dir);
    expect(dry.stdout).toContain("src/review/paths.ts:1:22  removedFileReference → replaceRenamedPath: replace 'test/helpers/judge.ts' by 'test/helpers/grader.ts', the name git gives it since the merge base  no-dangling-references\n");
    expect(dry.stdout).toContain('-export const JUDGE = "test/helpers/judge.ts";\n+export const JUDGE = "test/helpers/grader.ts";\n');
    expect(dry.stdout).toContain("+  'review-basic': ['test/evals/review.test.ts', 'src/review/**', 'test/helpers/grader.ts'],\n");
    expect(dry.stdout).toMatch(/\n2 fixes in 2 files; nothing written/);
    expect(runCli(['fix', '--write', '--base', 'main', '--no-cache'], dir).code).toBe(0);
    expect(findings(dir, ['--base', 'main'])).toEqual([]);
  });

  it('offers nothing without --base: git\'s rename detection is the only source of a new name', () => {
    const dir = renamed();
    expect(findings(dir)).toContain('touchfiles-cover-paid-tests/deadGlob test/helpers/touchfiles.ts:2:66');
    expect(runCli(['fix', '--no-cache'], dir).code).toBe(0);
  });
});

describe('tripwire fix, the command', () => {
  it('--format json of check shows a fix as an ESLint-style suggestion with its edits', () => {
    const dir = repo({ 'test/helpers/touchfiles.ts': CLEAN_MAP.replace("['test/helpers/touchfiles.ts', 'test/helpers/run.ts']", "['test/helpers/run.ts']") });
    const report: { findings: { messageId: string; suggestions?: unknown }[] } = JSON.parse(runCli(['check', '--format', 'json', '--no-cache'], dir).stdout);
    expect(report.findings.map((f) => [f.messageId, f.suggestions])).toEqual([
      ['mapFileNotGlobal', [{ messageId: 'addGlobal', desc: "append 'test/helpers/touchfiles.ts' to GLOBAL_TOUCHFILES", edits: [{ file: 'test/helpers/touchfiles.ts', range: [214, 214], text: ", 'test/helpers/touchfiles.ts'" }] }]],
    ]);
  });

  it('--help prints its own usage, and the README lists exactly its options', () => {
    const run = runCli(['fix', '--help'], repo({}));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: tripwire fix \[--write\] \[options\]\n/);
    expect(run.stdout).not.toContain('Options for check');
    const optionLines = [...run.stdout.matchAll(/^ {2}(--\S.*?)(?: {2,}|$)/gm)].map(([, line]) => line ?? '');
    const helpOptions = optionLines.flatMap((line) => [...line.matchAll(/--[a-z-]+/g)].map(([option]) => option));
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const section = /\n### Mechanical fixes: `tripwire fix`\n([\s\S]*?)\n### /.exec(readme)?.[1] ?? '';
    const readmeOptions = [...section.matchAll(/^\| `(--[a-z-]+)/gm)].map(([, option]) => option);
    expect(helpOptions.sort()).toEqual(['--base', '--cache-location', '--config', '--cwd', '--no-cache', '--rule', '--write']);
    expect(readmeOptions.sort()).toEqual(helpOptions.sort());
  });
});

describe('tripwire fix --write refuses', () => {
  it('a file that changed since it was read, writing nothing at all', async () => {
    const dir = repo({
      'test/evals/search.test.ts': GATED_SEARCH_TEST,
      'test/helpers/touchfiles.ts': CLEAN_MAP.replace("['test/helpers/touchfiles.ts', 'test/helpers/run.ts']", "['test/helpers/run.ts']"),
    });
    const { model, findings: found, rulesRun } = await run({ cwd: dir, cache: false });
    const selected = rulesRun.map((rule) => ({ rule, severity: 'error' as const, options: rule.parseOptions(undefined), preset: model.config.preset }));
    const plan = planFixes(model, selected, join(dir, 'tripwire.config.json'), found);
    expect(plan.applied.map((planned) => planned.fix.messageId)).toEqual(['addTier', 'addTouchfileEntry', 'addGlobal']);
    const edited = `${CLEAN_MAP}// edited in the editor meanwhile\n`;
    writeFileSync(join(dir, 'test/helpers/touchfiles.ts'), edited);
    expect(() => writeAll(model, plan, [...plan.texts.keys()])).toThrow('refusing to write test/helpers/touchfiles.ts: it changed since tripwire read it');
    expect(readFileSync(join(dir, 'test/helpers/touchfiles.ts'), 'utf8')).toBe(edited);
  });

  it('a path outside the repository, and a symbolic link', async () => {
    const dir = repo({});
    symlinkSync('../outside.ts', join(dir, 'test/helpers/link.ts'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'a link out');
    const { model } = await run({ cwd: dir, cache: false });
    const outside = { originals: new Map([['../outside.ts', '']]), texts: new Map([['../outside.ts', 'x']]), applied: [] };
    expect(() => writeAll(model, outside, ['../outside.ts'])).toThrow('refusing to write ../outside.ts: it is not a file of the repository');
    const link = { originals: new Map([['test/helpers/link.ts', '']]), texts: new Map([['test/helpers/link.ts', 'x']]), applied: [] };
    expect(() => writeAll(model, link, ['test/helpers/link.ts'])).toThrow(/^refusing to write test\/helpers\/link\.ts: it is not (a file of the repository|a regular file inside the repository)$/);
    expect(existsSync(join(dir, '../outside.ts'))).toBe(false);
  });
});
