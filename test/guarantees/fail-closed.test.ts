import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureRepo } from '../support/fixture-repo.js';
import { git, runCli } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

// Issue 16, item 2: DESIGN's "fail closed" as one table. Each condition tripwire cannot evaluate is either exactly one finding,
// at its node, with its message id, or exit 2 with a message naming what is wrong; never a green run and never many copies.

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

interface Finding {
  ruleId: string;
  messageId: string;
  file: string;
  line: number;
}

/** The map rules' known-good harness, with one edit applied and committed. */
function harness(edit: (dir: string) => void): string {
  const dir = fixtureRepo('maps/good');
  temps.push(dir);
  edit(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'the condition', '--allow-empty');
  return dir;
}

function replaceIn(dir: string, file: string, from: string, to: string): void {
  const text = readFileSync(join(dir, file), 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
  writeFileSync(join(dir, file), text.replace(from, to));
}

function findings(dir: string, args: string[] = []): { code: number | null; stderr: string; findings: Finding[] } {
  const run = runCli(['check', '--no-cache', '--format', 'json', ...args], dir);
  const parsed: { findings: Finding[] } = run.stdout.trim() === '' ? { findings: [] } : JSON.parse(run.stdout);
  return { code: run.code, stderr: run.stderr, findings: parsed.findings.map(({ ruleId, messageId, file, line }) => ({ ruleId, messageId, file, line })) };
}

describe('fail closed: what tripwire cannot evaluate is one finding at its node', () => {
  it('the known-good harness is clean (the neighbour of every row below)', () => {
    const result = findings(harness(() => undefined));
    expect(result.findings).toEqual([]);
    expect(result.code).toBe(0);
  });

  const rows: [string, (dir: string) => void, Pick<Finding, 'ruleId' | 'messageId' | 'file'>][] = [
    [
      'a map entry built by a call',
      (dir) => replaceIn(dir, 'test/helpers/touchfiles.ts', "'summary-edge': [...SHARED,", "'summary-edge': [...makeGlobs(),"),
      { ruleId: 'touchfiles-cover-paid-tests', messageId: 'unevaluableMap', file: 'test/helpers/touchfiles.ts' },
    ],
    [
      'a configured map file that does not exist',
      (dir) => replaceIn(dir, 'tripwire.config.json', '"file": "test/helpers/judge-touchfiles.json"', '"file": "test/helpers/gone.json"'),
      { ruleId: 'touchfiles-cover-paid-tests', messageId: 'missingMapFile', file: 'tripwire.config.json' },
    ],
    [
      'a tier map export that does not exist',
      (dir) => replaceIn(dir, 'tripwire.config.json', '"export": "E2E_TIERS"', '"export": "E2E_TIRES"'),
      { ruleId: 'tiers-cover-paid-tests', messageId: 'unevaluableMap', file: 'test/helpers/touchfiles.ts' },
    ],
    [
      'a configured glob that matches no file',
      (dir) => replaceIn(dir, 'tripwire.config.json', '"paid": ["test/evals/**/*.test.ts"]', '"paid": ["test/evals/**/*.test.ts", "test/evlas/**/*.test.ts"]'),
      { ruleId: 'unmatched-glob', messageId: 'unmatchedGlob', file: 'tripwire.config.json' },
    ],
    [
      'a test file that does not parse',
      (dir) => writeFileSync(join(dir, 'test/unit/broken.test.ts'), "import { test } from 'vitest';\ntest('x', () => {\n"),
      { ruleId: 'parse-error', messageId: 'parseError', file: 'test/unit/broken.test.ts' },
    ],
    [
      'a paid test file that declares no id',
      (dir) => writeFileSync(join(dir, 'test/evals/orphan.test.ts'), "import { test } from 'vitest';\ntest('a paid check with no id', () => {});\n"),
      { ruleId: 'touchfiles-cover-paid-tests', messageId: 'noTestId', file: 'test/evals/orphan.test.ts' },
    ],
  ];
  for (const [condition, edit, expected] of rows) {
    it(`${condition}: exactly one ${expected.ruleId}/${expected.messageId} in ${expected.file}, exit 1`, () => {
      const result = findings(harness(edit));
      expect(result.findings.map(({ ruleId, messageId, file }) => ({ ruleId, messageId, file }))).toEqual([expected]);
      expect(result.code).toBe(1);
    });
  }
});

describe('fail closed: what tripwire cannot check at all is exit 2 with a message', () => {
  const base = (): string => harness(() => undefined);
  const rows: [string, () => { cwd: string; args: string[] }, RegExp][] = [
    ['a --cwd that does not exist', () => ({ cwd: base(), args: ['--cwd', '/nonexistent/tripwire-fail-closed'] }), /nonexistent\/tripwire-fail-closed/],
    ['a path argument that names nothing listed', () => ({ cwd: base(), args: ['test/uint'] }), /test\/uint/],
    ['--base with a ref that does not exist', () => ({ cwd: base(), args: ['--base', 'origin/nowhere'] }), /origin\/nowhere/],
    [
      'an empty directory with no configuration',
      () => {
        const dir = mkdtempSync(join(tmpdir(), 'tripwire-empty-'));
        temps.push(dir);
        return { cwd: dir, args: [] };
      },
      /nothing to check/i,
    ],
    [
      'a bare repository',
      () => {
        const dir = mkdtempSync(join(tmpdir(), 'tripwire-bare-'));
        temps.push(dir);
        git(dir, 'init', '-q', '--bare');
        return { cwd: dir, args: [] };
      },
      /work tree/i,
    ],
    [
      'an invalid configuration',
      () => {
        const dir = base();
        writeFileSync(join(dir, 'tripwire.config.json'), '{ "tests": { "include": 3 } }');
        return { cwd: dir, args: [] };
      },
      /tests\.include/,
    ],
    [
      'a shallow clone without the base',
      () => {
        const origin = base();
        const clone = mkdtempSync(join(tmpdir(), 'tripwire-shallow-'));
        temps.push(clone);
        rmSync(clone, { recursive: true, force: true });
        git(tmpdir(), 'clone', '-q', '--depth', '1', `file://${origin}`, clone);
        mkdirSync(join(clone, 'notes'), { recursive: true });
        return { cwd: clone, args: ['--base', 'HEAD~1'] };
      },
      /fetch/i,
    ],
  ];
  for (const [condition, setup, message] of rows) {
    it(`${condition}: exit 2, saying so`, () => {
      const { cwd, args } = setup();
      const run = runCli(['check', '--no-cache', ...args], cwd);
      expect(run.stdout).not.toContain('✔');
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(run.code).toBe(2);
    });
  }

  it('git missing from PATH: exit 2, saying so', () => {
    const dir = base();
    const run = runCli(['check', '--no-cache', '--base', 'HEAD'], dir, { PATH: '/nonexistent-bin' });
    expect(run.stderr).toMatch(/git/);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(run.code).toBe(2);
  });
});
