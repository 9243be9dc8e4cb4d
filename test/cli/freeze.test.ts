import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeGitRepo, runCli, writeFiles } from '../support/repo.js';

const PARSE_TEST = `import { describe, expect, test } from 'vitest';
import { parse } from '../src/parse.js';

describe('parse', () => {
  test('reads a number', () => {
    expect(parse('1')).toBe(1);
    expect(parse('-2')).toBe(-2);
  });

  test('rejects words', { timeout: 1000 }, () => {
    expect(() => parse('one')).toThrow();
  });

  test.skip('reads hex', () => {
    expect(parse('0x10')).toBe(16);
  });
});
`;

function harness(): string {
  return makeGitRepo({
    'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }\n',
    'src/parse.ts': 'export function parse(text: string): number {\n  const value = Number(text);\n  if (Number.isNaN(value)) throw new Error(text);\n  return value;\n}\n',
    'test/parse.test.ts': PARSE_TEST,
    'test/fixtures/numbers.txt': '1\n-2\n',
    'test/fixtures/words.txt': 'one\n',
  });
}

function manifest(dir: string, name = 'frozen.json'): string {
  return readFileSync(join(dir, '.tripwire', name), 'utf8');
}

describe('tripwire freeze', () => {
  it('add keeps the fact cache of the files it did not read: the next check parses none of them again', () => {
    const dir = harness();
    writeFiles(dir, Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`test/t${i}.test.ts`, `import { test } from 'vitest';\ntest('t${i}', () => ${i});\n`])));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'more tests');
    const parsed = (): number => JSON.parse(runCli(['check', '--format', 'json', '--stats'], dir).stdout).summary.stats.facts.parsed;
    expect(parsed()).toBeGreaterThanOrEqual(9);
    expect(runCli(['freeze', 'add', 'test/parse.test.ts', '--reason', 'r'], dir).code).toBe(0);
    // The manifest is new, so the result cache misses; every script's facts are still in the fact cache.
    expect(parsed()).toBe(0);
  });

  it('add FILE freezes every test that runs, prints what it changed, and writes a reviewable manifest atomically', () => {
    const dir = harness();
    const run = runCli(['freeze', 'add', 'test/parse.test.ts', '--reason', 'pins the number format', '--owner', '@dana'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.replace(/sha256:[0-9a-f]{12}…/g, 'sha256:…')).toBe(
      [
        'froze test/parse.test.ts::parse > reads a number (sha256:…, 2 assertions, reads src/parse.ts#parse)',
        'froze test/parse.test.ts::parse > rejects words (sha256:…, 1 assertion, timeout 1000 ms, reads src/parse.ts#parse)',
        'not frozen test/parse.test.ts::parse > reads hex: it does not run as is (skip); freeze a test that runs',
        'wrote .tripwire/frozen.json: 2 tests frozen',
        '',
      ].join('\n'),
    );
    const text = manifest(dir);
    expect(text.endsWith('}\n')).toBe(true);
    expect(readdirSync(join(dir, '.tripwire'))).toEqual(['frozen.json']);
    const data = JSON.parse(text);
    expect(Object.keys(data)).toEqual(['version', 'tests']);
    expect(Object.keys(data.tests)).toEqual(['test/parse.test.ts::parse > reads a number', 'test/parse.test.ts::parse > rejects words']);
    expect(Object.keys(data.tests['test/parse.test.ts::parse > rejects words'])).toEqual(['hash', 'assertions', 'timeout', 'reads', 'reason', 'owner', 'status']);
    expect(data.tests['test/parse.test.ts::parse > reads a number']).toEqual({
      hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      assertions: 2,
      reads: { 'src/parse.ts#parse': expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
      reason: 'pins the number format',
      owner: '@dana',
      status: 'frozen',
    });
    expect(runCli(['check'], dir).code).toBe(0);
  });

  it('add FILE::ID freezes one test, defaults the owner to git user.email, and refuses what it cannot pin', () => {
    const dir = harness();
    expect(runCli(['freeze', 'add', 'test/parse.test.ts::parse > reads a number', '--reason', 'r'], dir).code).toBe(0);
    expect(JSON.parse(manifest(dir)).tests['test/parse.test.ts::parse > reads a number'].owner).toBe('test@example.com');

    const again = runCli(['freeze', 'add', 'test/parse.test.ts::parse > reads a number', '--reason', 'r'], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("'test/parse.test.ts::parse > reads a number' is already frozen; to re-pin it after an intended change, run 'tripwire freeze refresh'");
    const skipped = runCli(['freeze', 'add', 'test/parse.test.ts::parse > reads hex', '--reason', 'r'], dir);
    expect(skipped.code).toBe(2);
    expect(skipped.stderr).toContain("cannot freeze 'test/parse.test.ts::parse > reads hex': it does not run as is (skip)");
    const typo = runCli(['freeze', 'add', 'test/parse.test.ts::parse > reads a numbr', '--reason', 'r'], dir);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("test/parse.test.ts declares no test 'parse > reads a numbr' (did you mean 'parse > reads a number'?)");
    const noReason = runCli(['freeze', 'add', 'test/parse.test.ts'], dir);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('freeze add needs --reason');
  });

  it('verify is the rule on its own: exit 1 with the finding, exit 0 once fixed', () => {
    const dir = harness();
    runCli(['freeze', 'add', 'test/parse.test.ts', '--reason', 'r', '--owner', '@dana'], dir);
    const source = join(dir, 'test/parse.test.ts');
    writeFileSync(source, PARSE_TEST.replace("test('reads a number'", "test.skip('reads a number'"));
    const run = runCli(['freeze', 'verify'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("5:3  error  frozen test 'parse > reads a number' is skipped: a frozen test must run as pinned.");
    expect(run.stdout).toContain('no-weakened-frozen-tests');
    writeFileSync(source, PARSE_TEST);
    expect(runCli(['freeze', 'verify'], dir).code).toBe(0);
  });

  it('list shows every pin with its state, as text and as JSON', () => {
    const dir = harness();
    runCli(['freeze', 'add', 'test/parse.test.ts', '--reason', 'pins the number format', '--owner', '@dana'], dir);
    writeFileSync(join(dir, 'test/parse.test.ts'), PARSE_TEST.replace("expect(parse('-2')).toBe(-2);\n", ''));
    const text = runCli(['freeze', 'list'], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      [
        'rewritten  test/parse.test.ts::parse > reads a number  [frozen, @dana] pins the number format',
        'ok         test/parse.test.ts::parse > rejects words  [frozen, @dana] pins the number format',
        '2 frozen tests in .tripwire/frozen.json, 0 locked files in .tripwire/locks.json; 1 not as pinned (tripwire freeze verify)',
        '',
      ].join('\n'),
    );
    const json = JSON.parse(runCli(['freeze', 'list', '--format', 'json'], dir).stdout);
    expect(json.tests.map((t: { id: string; state: string[] }) => [t.id, t.state])).toEqual([
      ['test/parse.test.ts::parse > reads a number', ['rewritten']],
      ['test/parse.test.ts::parse > rejects words', []],
    ]);
  });

  it('refresh re-pins after an intended change and says what changed; thaw opens a test for its next change', () => {
    const dir = harness();
    runCli(['freeze', 'add', 'test/parse.test.ts', '--reason', 'r', '--owner', '@dana'], dir);
    writeFileSync(join(dir, 'test/parse.test.ts'), PARSE_TEST.replace("expect(parse('-2')).toBe(-2);", "expect(parse('-2')).toBe(-2);\n    expect(parse('3')).toBe(3);").replace('{ timeout: 1000 }', '{ timeout: 500 }'));
    const refreshed = runCli(['freeze', 'refresh', 'test/parse.test.ts::parse > reads a number', '--reason', 'covers positive numbers too'], dir);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stdout).toMatch(/^refreshed test\/parse\.test\.ts::parse > reads a number: hash sha256:[0-9a-f]{12}… → sha256:[0-9a-f]{12}…, assertions 2 → 3\n/);
    expect(refreshed.stdout).toContain("Commit this manifest change on its own: 'tripwire check --base' reports a diff that changes a frozen test and its pin together");
    const entry = JSON.parse(manifest(dir)).tests['test/parse.test.ts::parse > reads a number'];
    expect([entry.assertions, entry.reason, entry.owner, entry.status]).toEqual([3, 'covers positive numbers too', '@dana', 'frozen']);

    const thawed = runCli(['freeze', 'thaw', 'test/parse.test.ts::parse > rejects words', '--reason', 'the error type changes next'], dir);
    expect(thawed.stdout).toBe(
      "thawed test/parse.test.ts::parse > rejects words: its next change may edit it and re-pin it with 'tripwire freeze refresh'; it must still exist and run\nwrote .tripwire/frozen.json\n",
    );
    expect(JSON.parse(manifest(dir)).tests['test/parse.test.ts::parse > rejects words'].status).toBe('thawed');
    expect(runCli(['check'], dir).code).toBe(0);

    const unknown = runCli(['freeze', 'refresh', 'test/parse.test.ts::parse > reads a numbr', '--reason', 'r'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("'test/parse.test.ts::parse > reads a numbr' is not in .tripwire/frozen.json (did you mean 'test/parse.test.ts::parse > reads a number'?)");
  });

  it('exits 2 naming the key path when the manifest is invalid, and writes nothing', () => {
    const dir = harness();
    const broken = '{ "version": 1, "tests": { "test/parse.test.ts::parse > reads a number": { "hash": "md5:abc", "assertions": -1, "owner": "@dana", "status": "frozen" } } }\n';
    writeFiles(dir, { '.tripwire/frozen.json': broken });
    const run = runCli(['check'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      [
        'tripwire: invalid configuration',
        '.tripwire/frozen.json: tests.test/parse.test.ts::parse > reads a number.hash: expected "sha256:" and 64 lowercase hex digits',
        '.tripwire/frozen.json: tests.test/parse.test.ts::parse > reads a number.assertions: expected a number >= 0, received -1',
        '.tripwire/frozen.json: tests.test/parse.test.ts::parse > reads a number.reason: required (expected string)',
        '',
      ].join('\n'),
    );
    expect(runCli(['freeze', 'add', 'test/parse.test.ts', '--reason', 'r', '--owner', '@dana'], dir).code).toBe(2);
    expect(manifest(dir)).toBe(broken);
  });
});

describe('a frozen test is its meaning: the declarations it reads are pinned with it', () => {
  const GRADE_TEST = [
    "import { expect, test } from 'vitest';",
    "import { grade } from '../src/grade.js';",
    '',
    "const ALLOWED = ['pass', 'fail'];",
    'const PASS_MARK = 0.8;',
    'function verdictOf(score: number): string {',
    "  return score >= PASS_MARK ? 'pass' : 'fail';",
    '}',
    '',
    "test('grades within the allowed verdicts', () => {",
    '  expect(ALLOWED).toContain(verdictOf(grade(0.9)));',
    '});',
    '',
  ].join('\n');
  const GRADE = 'export function grade(score: number): number {\n  return Math.min(1, score);\n}\n\nexport function unrelated(): string {\n  return "x";\n}\n';

  function gradeHarness(): string {
    const dir = makeGitRepo({
      'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }\n',
      'src/grade.ts': GRADE,
      'test/grade.test.ts': GRADE_TEST,
    });
    expect(runCli(['freeze', 'add', 'test/grade.test.ts', '--reason', 'the verdict contract', '--owner', '@dana'], dir).code).toBe(0);
    return dir;
  }

  function findings(dir: string): string[] {
    const run = runCli(['check', '--format', 'json'], dir);
    return (JSON.parse(run.stdout) as { findings: { file: string; line: number; messageId: string; message: string }[] }).findings.map((f) => `${f.file}:${f.line} ${f.messageId} ${f.message}`);
  }

  it('pins the constants and functions the body reads, transitively, and the imported local helper by its own hash', () => {
    const dir = gradeHarness();
    expect(Object.keys(JSON.parse(manifest(dir)).tests['test/grade.test.ts::grades within the allowed verdicts'].reads)).toEqual(['ALLOWED', 'PASS_MARK', 'src/grade.ts#grade', 'verdictOf']);
    expect(findings(dir)).toEqual([]);
  });

  it('reports a frozen test whose threshold or allowlist changed, though its body did not', () => {
    const dir = gradeHarness();
    writeFiles(dir, { 'test/grade.test.ts': GRADE_TEST.replace('const PASS_MARK = 0.8;', 'const PASS_MARK = 0.1;').replace("['pass', 'fail']", "['pass', 'fail', 'skip']") });
    expect(findings(dir)).toEqual([
      "test/grade.test.ts:10 frozenTestRewritten frozen test 'grades within the allowed verdicts' reads ALLOWED, PASS_MARK, which changed since it was pinned: what the test checks changed with them. Restore them; only the test's owner (@dana) re-pins it, in a change of its own (tripwire freeze refresh).",
    ]);
  });

  it('reports an edit of the imported helper it calls, and not an edit elsewhere in that module', () => {
    const dir = gradeHarness();
    writeFiles(dir, { 'src/grade.ts': GRADE.replace('return "x";', 'return "y";') });
    expect(findings(dir)).toEqual([]);
    writeFiles(dir, { 'src/grade.ts': GRADE.replace('Math.min(1, score)', '1') });
    expect(findings(dir)).toEqual([
      "test/grade.test.ts:10 frozenTestRewritten frozen test 'grades within the allowed verdicts' reads src/grade.ts#grade, which changed since it was pinned: what the test checks changed with it. Restore it; only the test's owner (@dana) re-pins it, in a change of its own (tripwire freeze refresh).",
    ]);
  });

  it('does not count an unrelated constant added to the file, and freeze refresh re-pins what changed', () => {
    const dir = gradeHarness();
    writeFiles(dir, { 'test/grade.test.ts': `${GRADE_TEST}const RETRIES = 3;\nexport { RETRIES };\n` });
    expect(findings(dir)).toEqual([]);
    writeFiles(dir, { 'test/grade.test.ts': GRADE_TEST.replace('const PASS_MARK = 0.8;', 'const PASS_MARK = 0.9;') });
    const refresh = runCli(['freeze', 'refresh', 'test/grade.test.ts::grades within the allowed verdicts', '--reason', 'a stricter pass mark'], dir);
    expect(refresh.stdout).toContain('refreshed test/grade.test.ts::grades within the allowed verdicts: reads re-pinned: PASS_MARK');
    expect(findings(dir)).toEqual([]);
  });
});

describe('a frozen test and what it reads, re-pinned in the diff that changed them (--base)', () => {
  it('is a self-approval: the diff changes a declaration the test reads and re-pins it together', () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }\n',
      'test/limits.test.ts': "import { expect, test } from 'vitest';\n\nconst LIMIT = 3;\n\ntest('caps retries', () => {\n  expect(LIMIT).toBeLessThan(5);\n});\n",
    });
    expect(runCli(['freeze', 'add', 'test/limits.test.ts', '--reason', 'the retry cap', '--owner', '@dana'], dir).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'freeze');
    writeFiles(dir, { 'test/limits.test.ts': "import { expect, test } from 'vitest';\n\nconst LIMIT = 4;\n\ntest('caps retries', () => {\n  expect(LIMIT).toBeLessThan(5);\n});\n" });
    expect(runCli(['freeze', 'refresh', 'test/limits.test.ts::caps retries', '--reason', 'one more'], dir).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'raise the cap and re-pin');
    const run = runCli(['check', '--base', 'HEAD~1', '--format', 'json'], dir);
    const found = (JSON.parse(run.stdout) as { findings: { file: string; messageId: string; message: string }[] }).findings;
    expect(found.map((f) => `${f.file} ${f.messageId}`)).toEqual(['.tripwire/frozen.json selfApproval']);
    expect(found[0]?.message).toContain("changes the frozen test 'test/limits.test.ts::caps retries' (reads LIMIT changed) and also its pin in .tripwire/frozen.json (reads LIMIT re-pinned)");
  });
});

describe('tripwire freeze add RUNNER --assert NAMES (a shell or Python suite)', () => {
  const RUNNER = '#!/bin/sh\n# the gate\ncheck samples/a.json\ncheck samples/b.json   # trailing comment\n# check samples/c.json\nexpect_fail samples/bad.json\n';

  function runnerHarness(): string {
    return makeGitRepo({
      'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }\n',
      'src/parse.ts': 'export function parse(text: string): number {\n  return Number(text);\n}\n',
      'test/parse.test.ts': PARSE_TEST,
      'scripts/gate': RUNNER,
      'Makefile': 'gate:\n\tsh scripts/gate\n',
      'README.md': 'Run scripts/gate before a release.\n',
    });
  }

  it('pins the assertion sites and the rosters that name it, then reports a removed site and a dropped roster', () => {
    const dir = runnerHarness();
    const add = runCli(['freeze', 'add', 'scripts/gate', '--assert', 'check,expect_*', '--reason', 'the release gate', '--owner', '@dana'], dir);
    expect(add).toEqual({ code: 0, stdout: 'froze runner scripts/gate (3 assertion sites (check, expect_*), rosters: Makefile)\nwrote .tripwire/frozen.json\n', stderr: '' });
    expect(JSON.parse(manifest(dir)).runners).toEqual({ 'scripts/gate': { assert: ['check', 'expect_*'], assertions: 3, rosters: ['Makefile'], reason: 'the release gate', owner: '@dana', status: 'frozen' } });
    expect(runCli(['check'], dir).code).toBe(0);

    writeFiles(dir, { 'scripts/gate': RUNNER.replace('check samples/b.json   # trailing comment\n', ''), Makefile: 'gate:\n\techo skipped\n' });
    const check = runCli(['check', '--format', 'json'], dir);
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).findings.map((f: { file: string; line: number; messageId: string }) => `${f.file}:${f.line} ${f.messageId}`)).toEqual(['Makefile:1 runnerDroppedFromRoster', 'scripts/gate:1 runnerAssertionsRemoved']);

    const refresh = runCli(['freeze', 'refresh', 'scripts/gate', '--reason', 'b.json merged into a.json'], dir);
    expect(refresh.stdout).toBe('refreshed runner scripts/gate (2 assertion sites (check, expect_*), rosters: none)\nwrote .tripwire/frozen.json\n');
    expect(runCli(['check'], dir).code).toBe(0);
  });

  it('refuses a file that is not a shell or Python runner, a runner with no assertion site, and a roster that does not name it', () => {
    const dir = runnerHarness();
    const notRunner = runCli(['freeze', 'add', 'README.md', '--assert', 'check', '--reason', 'r', '--owner', '@dana'], dir);
    expect(notRunner.code).toBe(2);
    expect(notRunner.stderr).toContain('README.md is not a shell or Python runner (by its extension or #! line)');
    const none = runCli(['freeze', 'add', 'scripts/gate', '--assert', 'verify', '--reason', 'r', '--owner', '@dana'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('scripts/gate has no call of verify: nothing to pin');
    const roster = runCli(['freeze', 'add', 'scripts/gate', '--assert', 'check', '--roster', 'README.md', '--roster', 'test/parse.test.ts', '--reason', 'r', '--owner', '@dana'], dir);
    expect(roster.code).toBe(2);
    expect(roster.stderr).toContain('roster test/parse.test.ts does not name scripts/gate');
    const wildcard = runCli(['freeze', 'add', 'scripts/gate', '--assert', '*', '--reason', 'r', '--owner', '@dana'], dir);
    expect(wildcard.code).toBe(2);
    expect(wildcard.stderr).toContain("'*' is not one");
    expect(readdirSync(dir)).not.toContain('.tripwire');
  });
});

describe('tripwire lock', () => {
  it('locks the files a glob matches, re-locks a changed one, and verifies them', () => {
    const dir = harness();
    const locked = runCli(['lock', 'test/fixtures/*.txt'], dir);
    expect(locked.code).toBe(0);
    expect(locked.stdout.replace(/sha256:[0-9a-f]{12}…/g, 'sha256:…')).toBe(
      'locked test/fixtures/numbers.txt (sha256:…)\nlocked test/fixtures/words.txt (sha256:…)\nwrote .tripwire/locks.json: 2 files locked\n',
    );
    expect(JSON.parse(manifest(dir, 'locks.json'))).toEqual({
      version: 1,
      files: {
        'test/fixtures/numbers.txt': expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        'test/fixtures/words.txt': expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      },
    });
    expect(runCli(['lock', '--verify'], dir).stdout).toBe('✔ 2 locked files unchanged (.tripwire/locks.json)\n');

    writeFileSync(join(dir, 'test/fixtures/words.txt'), 'one\ntwo\n');
    const verify = runCli(['lock', '--verify'], dir);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('test/fixtures/words.txt\n  1:1  error  locked file test/fixtures/words.txt changed');

    const relocked = runCli(['lock', 'test/fixtures/words.txt', 'test/fixtures/numbers.txt'], dir);
    expect(relocked.stdout.replace(/sha256:[0-9a-f]{12}…/g, 'sha256:…')).toBe(
      'unchanged test/fixtures/numbers.txt\nre-locked test/fixtures/words.txt (sha256:… → sha256:…)\nwrote .tripwire/locks.json: 1 file locked\n',
    );
    expect(runCli(['lock', '--verify'], dir).code).toBe(0);
  });

  it('refuses a glob that matches nothing, and writes nothing', () => {
    const dir = harness();
    const run = runCli(['lock', 'test/fixtures/*.txt', 'test/oracle/**'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("'test/oracle/**' matches no file of this repository; nothing was locked");
    expect(readdirSync(dir)).not.toContain('.tripwire');
  });
});

