import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeGitRepo, runCli } from '../support/repo.js';

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
