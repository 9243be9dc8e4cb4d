import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeGitRepo, runCli, writeFiles } from '../support/repo.js';

// Each case is a way today's tripwire printed ✔ and exited 0 on something it never
// looked at (issue 16, "Fail-open"), beside the neighbour that is still checked.

const CONFIG = JSON.stringify({ tests: { include: ['test/**/*.test.ts'] } });

const UNIT = {
  'tripwire.config.json': CONFIG,
  'test/unit/format.test.ts': `import { expect, test } from 'vitest';\ntest('formats', () => expect('a').toBe('a'));\n`,
};

describe('check exits 2 on a target it cannot check, rather than reporting nothing', () => {
  it('exits 2 on a path argument that does not exist, naming it', () => {
    const run = runCli(['check', 'does/not/exist.ts'], makeGitRepo(UNIT));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("path 'does/not/exist.ts' names no file tripwire checks");
    expect(run.stdout).toBe('');
  });

  it('exits 2 on a mistyped directory argument, naming it', () => {
    const run = runCli(['check', 'test/uint'], makeGitRepo(UNIT));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("path 'test/uint' names no file tripwire checks");
  });

  it('exits 2 on a path argument outside the repository', () => {
    const dir = makeGitRepo(UNIT);
    const run = runCli(['check', '/etc'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`path '/etc' is outside the repository checked (${dir})`);
  });

  it('accepts a listed file, a directory holding listed files, and the root itself as paths', () => {
    const dir = makeGitRepo(UNIT);
    expect(runCli(['check', 'test/unit/format.test.ts'], dir)).toMatchObject({ code: 0, stderr: '' });
    expect(runCli(['check', 'test/unit', 'test/'], dir)).toMatchObject({ code: 0, stderr: '' });
    expect(runCli(['check', '.'], dir)).toMatchObject({ code: 0, stderr: '' });
  });

  it('ignores the paths under --staged, where a hook tool appends its own file list', () => {
    const dir = makeGitRepo(UNIT);
    expect(runCli(['check', '--staged', 'does/not/exist.ts'], dir)).toMatchObject({ code: 0, stderr: '' });
  });

  it('exits 2 on a --cwd that does not exist, without a stack trace', () => {
    const dir = makeGitRepo(UNIT);
    const run = runCli(['check', '--cwd', 'no/such/dir'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("tripwire: --cwd no/such/dir: no such directory\nRun 'tripwire --help' for usage.\n");
    expect(runCli(['select', '--base', 'HEAD', '--cwd', 'no/such/dir'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('--cwd no/such/dir: no such directory') });
  });

  it('exits 2 on a --cwd that is a file', () => {
    const run = runCli(['check', '--cwd', 'tripwire.config.json'], makeGitRepo(UNIT));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--cwd tripwire.config.json: not a directory');
  });

  it('exits 2 on an empty directory: no configuration and no test file is nothing to check', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tripwire-test-'));
    const run = runCli(['check'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`nothing to check in ${dir}: no configuration`);
    expect(run.stderr).toContain("run 'tripwire init' there");
    expect(run.stdout).toBe('');
  });

  it('exits 2 on a repository with no commits and no files', () => {
    const dir = makeGitRepo({}, { commit: false });
    const run = runCli(['check', '--format', 'json'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('nothing to check');
    expect(run.stdout).toBe('');
  });

  it('checks a repository with no configuration whose files the default tests.include matches', () => {
    const run = runCli(['check'], makeGitRepo({ 'src/format.test.ts': `import { test } from 'vitest';\ntest('x', () => {});\n` }));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^✔ no problems \(1 file,/);
  });

  it('checks a configured repository with no test file, where the configured glob is the finding', () => {
    const run = runCli(['check', '--format', 'json'], makeGitRepo({ 'tripwire.config.json': CONFIG }));
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings.map((f: { messageId: string }) => f.messageId)).toEqual(['unmatchedGlob']);
  });

  it('exits 2 on a bare repository: no work tree', () => {
    const source = makeGitRepo(UNIT);
    const bare = join(mkdtempSync(join(tmpdir(), 'tripwire-test-')), 'bare.git');
    execFileSync('git', ['clone', '-q', '--bare', source, bare]);
    for (const cwd of [bare, join(bare, 'refs')]) {
      const run = runCli(['check', '--cwd', cwd], source);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`cannot check ${cwd}: no work tree`);
      expect(run.stdout).toBe('');
    }
  });

  it('exits 2 inside the .git directory of a work tree, and checks the work tree itself', () => {
    const dir = makeGitRepo(UNIT);
    expect(runCli(['check', '--cwd', '.git'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('no work tree') });
    expect(runCli(['check'], dir).code).toBe(0);
  });

  it('checks a linked worktree of a repository, which has a .git file rather than a directory', () => {
    const dir = makeGitRepo(UNIT);
    const linked = join(mkdtempSync(join(tmpdir(), 'tripwire-test-')), 'linked');
    git(dir, 'worktree', 'add', '-q', linked);
    expect(runCli(['check', '--cwd', linked], dir)).toMatchObject({ code: 0, stderr: '' });
  });
});

interface JsonFinding {
  ruleId: string;
  messageId: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  message: string;
}

function findingsOf(dir: string, args: string[] = []): { code: number | null; findings: string[]; raw: JsonFinding[] } {
  const run = runCli(['check', '--format', 'json', '--no-cache', ...args], dir);
  const raw: JsonFinding[] = JSON.parse(run.stdout).findings;
  return { code: run.code, findings: raw.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId}/${f.messageId}`), raw };
}

const SEAM_HARNESS = {
  'tripwire.config.json': JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['skills/**'] } }),
  'tests/review/review.test.ts': `import { spawnSync } from 'node:child_process';\nimport { test } from 'vitest';\ntest('reviews', () => {\n  spawnSync('sh', ['skills/review/fetch.sh'], { env: { ...process.env, REVIEW_FIXTURE_DIR: 'tests/review/fixtures' } });\n});\n`,
};

describe('a stray NUL byte does not make a text file binary and unchecked', () => {
  it('scans a shipped shell script holding a NUL as text: its reads of a test-only variable are still errors', () => {
    const { code, findings } = findingsOf(makeGitRepo({ ...SEAM_HARNESS, 'skills/review/fetch.sh': '#!/bin/sh\n\u0000if [ -n "$REVIEW_FIXTURE_DIR" ]; then\n  cat "$REVIEW_FIXTURE_DIR/change.diff"\nfi\n' }));
    expect(code).toBe(1);
    expect(findings).toEqual(['skills/review/fetch.sh:2:12 no-test-carve-outs/testOnlyEnvVar', 'skills/review/fetch.sh:3:9 no-test-carve-outs/testOnlyEnvVar']);
  });

  it('scans a SKILL.md holding a NUL for the tokens of a removed mechanism', () => {
    const config = JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['skills/**'] }, removed: [{ id: 'stipulation', tokens: ['STIPULATE_FIXTURES'], why: 'the harness no longer stipulates fixtures' }], preset: 'strict' });
    const skill = '# Review\n\u0000\nHonour STIPULATE_FIXTURES when it is set.\n';
    const { findings } = findingsOf(makeGitRepo({ ...SEAM_HARNESS, 'tripwire.config.json': config, 'skills/review/SKILL.md': skill }));
    expect(findings).toEqual(['skills/review/SKILL.md:3:8 no-dangling-references/removedToken']);
  });

  it('the same SKILL.md without the NUL: the same finding', () => {
    const config = JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['skills/**'] }, removed: [{ id: 'stipulation', tokens: ['STIPULATE_FIXTURES'], why: 'the harness no longer stipulates fixtures' }], preset: 'strict' });
    const { findings } = findingsOf(makeGitRepo({ ...SEAM_HARNESS, 'tripwire.config.json': config, 'skills/review/SKILL.md': '# Review\n\nHonour STIPULATE_FIXTURES when it is set.\n' }));
    expect(findings).toEqual(['skills/review/SKILL.md:3:8 no-dangling-references/removedToken']);
  });

  it('reports a shipped file of no text format whose content is binary once, as notText; an image under the same glob is not a text artifact', () => {
    const binary = `${'\u0000\u0001\u0002\u0003'.repeat(64)}REVIEW_FIXTURE_DIR\n`;
    const { code, raw } = findingsOf(makeGitRepo({ ...SEAM_HARNESS, 'skills/review/bin/fetch': binary, 'skills/review/diagram.png': binary }));
    expect(code).toBe(1);
    expect(raw).toEqual([
      {
        ruleId: 'read-error',
        messageId: 'notText',
        severity: 'error',
        file: 'skills/review/bin/fetch',
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 1,
        message: 'skills/review/bin/fetch is not text (mostly NUL, control or invalid UTF-8 bytes), so nothing in it was checked: give it the extension of its format, or leave it out of the configured globs',
      },
    ]);
  });

  it('scans an extension-less shipped stub with one NUL as text', () => {
    const stub = '#!/bin/sh\n\u0000cat "$REVIEW_FIXTURE_DIR/change.diff"\n';
    const { findings } = findingsOf(makeGitRepo({ ...SEAM_HARNESS, 'skills/review/bin/fetch': stub }));
    expect(findings).toEqual(['skills/review/bin/fetch:2:8 no-test-carve-outs/testOnlyEnvVar']);
  });
});

describe('deeply nested Markdown does not hide the rest of a SKILL.md', () => {
  const config = JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['skills/**'] }, removed: [{ id: 'stipulation', tokens: ['STIPULATE_FIXTURES'], why: 'the harness no longer stipulates fixtures' }], preset: 'strict' });

  it('checks the prose that follows 50 levels of list markers (100 bytes) for a test-only variable', () => {
    const skill = `# Review\n\n${'- '.repeat(50)}deep\n\nRead the change from REVIEW_FIXTURE_DIR when it is set.\n`;
    const { findings } = findingsOf(makeGitRepo({ ...SEAM_HARNESS, 'skills/review/SKILL.md': skill }));
    expect(findings).toEqual(['skills/review/SKILL.md:5:22 no-test-carve-outs/testOnlyEnvMention']);
  });

  it('reports nesting deeper than the parser reads as a parse-error at its line', () => {
    const skill = `# Review\n\n${'- '.repeat(600)}deep\n\nHonour STIPULATE_FIXTURES when it is set.\n`;
    const { code, findings, raw } = findingsOf(makeGitRepo({ ...SEAM_HARNESS, 'tripwire.config.json': config, 'skills/review/SKILL.md': skill }));
    expect(code).toBe(1);
    expect(findings).toContain('skills/review/SKILL.md:3:1 parse-error/parseError');
    expect(raw.find((f) => f.ruleId === 'parse-error')?.message).toBe(
      'cannot parse skills/review/SKILL.md: blocks nest deeper than 1000 levels at line 3: the Markdown parser stops there, and nothing nested deeper was read',
    );
  });
});

describe('a __proto__ key cannot switch a rule off', () => {
  const PAID_IN_FREE = {
    'test/judge.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('judges', () => { new OpenAI(); });\n`,
  };

  it("exits 2 on a top-level '__proto__' in the configuration, naming it, rather than running without the rule", () => {
    const config = '{\n  "tests": { "include": ["test/**/*.test.ts"] },\n  "__proto__": { "rules": { "no-paid-calls-in-free-tests": "off" } }\n}\n';
    const run = runCli(['check'], makeGitRepo({ ...PAID_IN_FREE, 'tripwire.config.json': config }));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "tripwire: invalid configuration\ntripwire.config.json:3:3: __proto__: the key '__proto__' is refused at every level: a JSON parser gives its value to the object's prototype, where it applies unseen; remove it\n",
    );
    expect(run.stdout).toBe('');
  });

  it('the same repository without the key reports the paid call', () => {
    const config = '{\n  "tests": { "include": ["test/**/*.test.ts"] }\n}\n';
    expect(findingsOf(makeGitRepo({ ...PAID_IN_FREE, 'tripwire.config.json': config })).findings).toEqual(['test/judge.test.ts:1:1 no-paid-calls-in-free-tests/paidImport']);
  });

  it('exits 2 on a __proto__ key in the baseline, which would otherwise be read as known findings', () => {
    const baseline = '{ "version": 2, "findings": [], "__proto__": { "findings": [] } }\n';
    const run = runCli(['check'], makeGitRepo({ ...PAID_IN_FREE, 'tripwire.config.json': CONFIG, '.tripwire/baseline.json': baseline }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(".tripwire/baseline.json: __proto__: the key '__proto__' is refused at every level");
  });

  it('exits 2 on a constructor key in the frozen manifest, at its line', () => {
    const frozen = '{\n  "version": 1,\n  "tests": { "constructor": {} }\n}\n';
    const run = runCli(['check'], makeGitRepo({ ...PAID_IN_FREE, 'tripwire.config.json': CONFIG, '.tripwire/frozen.json': frozen }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(".tripwire/frozen.json:3:14: tests.constructor: the key 'constructor' is refused at every level");
  });

  it('reports a __proto__ key in a JSON touchfile map as a map it cannot evaluate, at the key', () => {
    const config = JSON.stringify({ tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**'] }, maps: { touchfiles: { file: 'test/maps.json', path: 'touchfiles' } } });
    const maps = '{\n  "touchfiles": {\n    "answer": ["test/evals/answer.test.ts"],\n    "__proto__": { "answer": ["src/**"] }\n  }\n}\n';
    const { findings } = findingsOf(
      makeGitRepo({
        'tripwire.config.json': config,
        'test/maps.json': maps,
        'test/evals/answer.test.ts': `import { test } from 'vitest';\ntest('answer', () => {});\n`,
      }),
    );
    expect(findings).toContain('test/maps.json:4:5 touchfiles-cover-paid-tests/unevaluableMap');
  });
});

describe('a const map mutated after its declaration is not evaluated from its literal', () => {
  const config = JSON.stringify({
    tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**/*.test.ts'], ids: [{ call: 'runEval', property: 'name' }] },
    maps: {
      touchfiles: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' },
      tiers: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TIERS' },
      globals: { file: 'test/helpers/touchfiles.ts', export: 'GLOBAL_TOUCHFILES', require: ['test/helpers/run.ts'] },
    },
  });
  const rest = `export const E2E_TIERS = { answer: 'gate' };\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];\n`;
  const harness = (touchfiles: string): Record<string, string> => ({
    'tripwire.config.json': config,
    'test/helpers/run.ts': `export function runEval(options: { name: string }) {\n  return options.name;\n}\n`,
    'test/helpers/touchfiles.ts': `${touchfiles}${rest}`,
    'test/evals/answer.test.ts': `import { runEval } from '../helpers/run.js';\nrunEval({ name: 'answer' });\n`,
  });

  it('reports the map as unevaluable at its declaration, naming the line that mutates it', () => {
    const { code, raw } = findingsOf(makeGitRepo(harness(`export const E2E_TOUCHFILES = {\n  answer: ['test/evals/answer.test.ts', 'test/helpers/run.ts'],\n};\nE2E_TOUCHFILES.answer = [];\n`)));
    expect(code).toBe(1);
    expect(raw.filter((f) => f.messageId === 'unevaluableMap').map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.message}`)).toEqual([
      "test/helpers/touchfiles.ts:1:14 touchfiles-cover-paid-tests cannot evaluate the map statically: 'E2E_TOUCHFILES' is mutated at line 4: `E2E_TOUCHFILES.answer = …` changes it after its declaration, so its literal is not its value at run time; build the whole value in the declaration",
    ]);
  });

  it('evaluates the same map when nothing writes into it', () => {
    const { code, findings } = findingsOf(makeGitRepo(harness(`export const E2E_TOUCHFILES = {\n  answer: ['test/evals/answer.test.ts', 'test/helpers/run.ts'],\n};\nexport const ANSWER_FILES = [...E2E_TOUCHFILES.answer].sort();\n`)));
    expect(findings).toEqual([]);
    expect(code).toBe(0);
  });
});

describe('a YAML map entry with a key that is not a scalar is not dropped in silence', () => {
  const config = JSON.stringify({ tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**'] }, maps: { touchfiles: { file: 'test/maps.yaml', path: 'touchfiles' } } });
  const files = (maps: string): Record<string, string> => ({
    'tripwire.config.json': config,
    'test/maps.yaml': maps,
    'test/evals/answer.test.ts': `import { test } from 'vitest';\ntest('answer', () => {});\n`,
  });

  it('reports the entry as unevaluable at its key', () => {
    const { code, findings } = findingsOf(makeGitRepo(files(`touchfiles:\n  answer:\n    - test/evals/answer.test.ts\n  ? [answer, judge]\n  : - src/**\n`)), ['--rule', 'touchfiles-cover-paid-tests']);
    expect(code).toBe(1);
    expect(findings).toEqual(['test/maps.yaml:4:5 touchfiles-cover-paid-tests/unevaluableMap']);
  });

  it('reads the same map with plain keys', () => {
    const { findings } = findingsOf(makeGitRepo(files(`touchfiles:\n  answer:\n    - test/evals/answer.test.ts\n`)), ['--rule', 'touchfiles-cover-paid-tests']);
    expect(findings).toEqual([]);
  });
});

describe('a glob matches a file name holding a newline', () => {
  const config = JSON.stringify({
    tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**/*.test.ts'], ids: [{ call: 'runEval', property: 'name' }] },
    maps: { touchfiles: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' } },
  });
  const harness = {
    'tripwire.config.json': config,
    'test/helpers/run.ts': `export function runEval(options: { name: string }) {\n  return options.name;\n}\n`,
    'test/helpers/touchfiles.ts': `export const E2E_TOUCHFILES = {\n  'review-basic': ['test/evals/review.test.ts', 'src/review/**'],\n};\n`,
    'test/evals/review.test.ts': `import { runEval } from '../helpers/run.js';\nrunEval({ name: 'review-basic' });\n`,
    'src/review/review.ts': 'export const review = 1;\n',
  };

  function selectAfterAdding(name: string): { code: number | null; changed: string[]; selected: string[] } {
    const dir = makeGitRepo(harness);
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFiles(dir, { [name]: 'export const extra = 1;\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'change');
    const run = runCli(['select', '--base', 'main', '--format', 'json'], dir);
    const output: { changed: string[]; selected: { id: string }[] } = JSON.parse(run.stdout);
    return { code: run.code, changed: output.changed, selected: output.selected.map((entry) => entry.id) };
  }

  it('selects the test whose ** glob matches a changed file with a newline in its name', () => {
    expect(selectAfterAdding('src/review/notes\nmore.ts')).toEqual({ code: 0, changed: ['src/review/notes\nmore.ts'], selected: ['review-basic'] });
  });

  it('selects it for the same change under a plain name', () => {
    expect(selectAfterAdding('src/review/notes-more.ts')).toEqual({ code: 0, changed: ['src/review/notes-more.ts'], selected: ['review-basic'] });
  });

  it("checks a test file under a directory with a newline in its name, which the include glob's ** spans", () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, 'test/new\nunit/judge.test.ts': `import OpenAI from 'openai';\nnew OpenAI();\n` });
    expect(findingsOf(dir).findings).toEqual(['test/new\nunit/judge.test.ts:1:1 no-paid-calls-in-free-tests/paidImport']);
  });
});

describe('a submodule a configured glob reaches into is reported, not dropped', () => {
  /** A repository whose `test/vendor/evals` is a real submodule holding a free test that reaches a paid call. */
  function withSubmodule(config: unknown, files: Record<string, string> = {}): string {
    const inner = makeGitRepo({ 'judge.test.ts': `import OpenAI from 'openai';\nnew OpenAI();\n` });
    const dir = makeGitRepo({ 'tripwire.config.json': JSON.stringify(config), 'test/unit/format.test.ts': `import { test } from 'vitest';\ntest('formats', () => {});\n`, ...files });
    git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'test/vendor/evals');
    git(dir, 'commit', '-q', '-m', 'submodule');
    return dir;
  }

  it('reports a submodule under a test root once, naming the glob', () => {
    const { code, raw } = findingsOf(withSubmodule({ tests: { include: ['test/**/*.test.ts'] } }));
    expect(code).toBe(1);
    expect(raw.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId}/${f.messageId} ${f.message}`)).toEqual([
      "test/vendor/evals:1:1 unchecked-submodule/uncheckedSubmodule submodule not checked: test/vendor/evals is a git submodule, and tests.include 'test/**/*.test.ts' reaches into it, but tripwire lists no file of another repository, so nothing in it was checked. Check it in its own repository, or leave it out with ignore",
    ]);
  });

  it('reports a submodule that a shipped glob reaches into beside files of its own', () => {
    const { findings } = findingsOf(withSubmodule({ tests: { include: ['test/unit/**/*.test.ts'] }, shipped: { include: ['test/vendor/**'] } }, { 'test/vendor/README.md': '# Vendored suites\n' }));
    expect(findings).toEqual(['test/vendor/evals:1:1 unchecked-submodule/uncheckedSubmodule']);
  });

  it('is silent about a submodule no glob reaches, one left out with ignore, and one a negated glob excludes', () => {
    expect(findingsOf(withSubmodule({ tests: { include: ['test/unit/**/*.test.ts'] } })).findings).toEqual([]);
    expect(findingsOf(withSubmodule({ tests: { include: ['test/**/*.test.ts'] }, ignore: ['test/vendor/**'] })).findings).toEqual([]);
    expect(findingsOf(withSubmodule({ tests: { include: ['test/**/*.test.ts', '!test/vendor/**'] } })).findings).toEqual([]);
  });
});
