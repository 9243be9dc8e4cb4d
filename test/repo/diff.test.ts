import { mkdtempSync, realpathSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changedFiles, MissingRefError, readStagedState, resolveBase, stagedTopLevel, startStagedGit, type KnownIndex, type StagedState } from '../../src/repo/diff.js';
import { probeResults } from '../../src/engine/results-cache.js';
import { git, makeGitRepo, writeFiles } from '../support/repo.js';

// A test run from a git hook inherits these; they would point at the wrong repository.
delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

const temps: string[] = [];
function repo(files: Record<string, string>, options: { commit?: boolean } = {}): string {
  const dir = makeGitRepo(files, options);
  temps.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const BASE_FILES = {
  '.gitignore': 'out/\n',
  'a.ts': 'export const a = 1;\n',
  'b.ts': 'export const b = 1;\n',
  'src/old.ts': 'export const old = 1;\n',
  'src/gone.ts': 'export const gone = 1;\n',
};

/** A repository on branch `feature`, forked from `main` after the fixture commit. */
function featureRepo(files: Record<string, string> = BASE_FILES): string {
  const dir = repo(files);
  git(dir, 'checkout', '-q', '-b', 'feature');
  return dir;
}

function commitAll(dir: string, message: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

async function rejection(promise: Promise<unknown>): Promise<MissingRefError> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof MissingRefError)) throw new Error(`expected a MissingRefError, got ${String(error)}`);
  return error;
}

describe('resolveBase', () => {
  it('is the fork point of the branch, not the current tip of the base', async () => {
    const dir = featureRepo();
    const forkPoint = git(dir, 'rev-parse', 'HEAD').trim();
    writeFiles(dir, { 'a.ts': 'export const a = 2;\n' });
    commitAll(dir, 'feature change');
    git(dir, 'checkout', '-q', 'main');
    writeFiles(dir, { 'main-only.ts': 'export const m = 1;\n' });
    commitAll(dir, 'main moves on');
    git(dir, 'checkout', '-q', 'feature');

    expect(await resolveBase(dir, 'main')).toBe(forkPoint);
    expect(await changedFiles(dir, dir, { base: 'main' })).toEqual(['a.ts']);
  });

  it('throws MissingRefError with the fetch hint when the ref does not exist', async () => {
    const dir = featureRepo();
    const error = await rejection(resolveBase(dir, 'origin/main'));
    expect(error.ref).toBe('origin/main');
    expect(error.message).toBe(
      "base ref 'origin/main' not found. In CI, check out with full history (actions/checkout 'fetch-depth: 0') or run 'git fetch origin main'.",
    );
    await expect(changedFiles(dir, dir, { base: 'origin/main' })).rejects.toThrow(MissingRefError);
  });

  it('never lets a ref be read as an option', async () => {
    const dir = featureRepo();
    const error = await rejection(resolveBase(dir, '--output=injected'));
    expect(error.message).toContain("base ref '--output=injected' not found");
  });

  it('throws MissingRefError naming HEAD in a repository with no commits', async () => {
    const dir = repo({ 'a.ts': '' }, { commit: false });
    const error = await rejection(resolveBase(dir, 'main'));
    expect(error.ref).toBe('HEAD');
    expect(error.message).toContain('the repository has no commits yet');
    expect(error.message).toContain('--staged');
  });

  it('throws MissingRefError when the ref shares no history with HEAD', async () => {
    const dir = repo(BASE_FILES);
    git(dir, 'checkout', '-q', '--orphan', 'unrelated');
    commitAll(dir, 'orphan');
    const error = await rejection(resolveBase(dir, 'main'));
    expect(error.message).toBe("no merge base of 'main' and HEAD: they share no history.");
  });

  describe('in a shallow clone', () => {
    function shallowClone(extra: string[]): string {
      const origin = featureRepo();
      writeFiles(origin, { 'a.ts': 'export const a = 2;\n' });
      commitAll(origin, 'feature change');
      git(origin, 'checkout', '-q', 'main');
      writeFiles(origin, { 'b.ts': 'export const b = 2;\n' });
      commitAll(origin, 'main moves on');
      const parent = mkdtempSync(join(tmpdir(), 'tripwire-shallow-'));
      temps.push(parent);
      git(parent, 'clone', '-q', '--depth', '1', '--branch', 'feature', ...extra, `file://${origin}`, 'clone');
      return join(parent, 'clone');
    }

    it('says the base branch was not fetched and how to fetch it', async () => {
      const clone = shallowClone([]);
      expect(git(clone, 'rev-parse', '--is-shallow-repository').trim()).toBe('true');
      const error = await rejection(resolveBase(clone, 'origin/main'));
      expect(error.message).toBe(
        "base ref 'origin/main' not found in this shallow clone. In CI, check out with full history (actions/checkout 'fetch-depth: 0') or run 'git fetch origin main'.",
      );
    });

    it('says the history that joins the base and HEAD is missing when the base tip was fetched', async () => {
      const clone = shallowClone(['--no-single-branch']);
      git(clone, 'rev-parse', '--verify', 'origin/main');
      const error = await rejection(resolveBase(clone, 'origin/main'));
      expect(error.ref).toBe('origin/main');
      expect(error.message).toContain('shallow clone');
      expect(error.message).toContain("actions/checkout 'fetch-depth: 0'");
      expect(error.message).toContain("'git fetch --unshallow'");
    });
  });
});

describe('changedFiles against a base', () => {
  it('counts committed, staged, unstaged and untracked changes, and nothing ignored', async () => {
    const dir = featureRepo();
    writeFiles(dir, { 'a.ts': 'export const a = 2;\n' });
    commitAll(dir, 'committed');
    writeFiles(dir, { 'b.ts': 'export const b = 2;\n', 'staged.ts': '' });
    git(dir, 'add', 'b.ts', 'staged.ts');
    writeFiles(dir, { 'src/old.ts': 'export const old = 2;\n', 'docs/naïve name.md': '# new\n', 'out/build.js': '' });

    expect(await changedFiles(dir, dir, { base: 'main' })).toEqual(['a.ts', 'b.ts', 'docs/naïve name.md', 'src/old.ts', 'staged.ts']);
  });

  it('reports a rename as its old and new path, and deletions, committed or not', async () => {
    const dir = featureRepo();
    git(dir, 'mv', 'src/old.ts', 'src/new.ts');
    git(dir, 'rm', '-q', 'src/gone.ts');
    commitAll(dir, 'rename and delete');
    unlinkSync(join(dir, 'b.ts'));

    expect(await changedFiles(dir, dir, { base: 'main' })).toEqual(['b.ts', 'src/gone.ts', 'src/new.ts', 'src/old.ts']);
  });

  it('is empty when nothing changed, and accepts the merge base itself', async () => {
    const dir = featureRepo();
    const base = await resolveBase(dir, 'main');
    expect(await changedFiles(dir, dir, { base })).toEqual([]);
  });

  it('with staged, compares the merge base with the index: unstaged and untracked files do not count', async () => {
    const dir = featureRepo();
    writeFiles(dir, { 'a.ts': 'export const a = 2;\n' });
    commitAll(dir, 'committed');
    writeFiles(dir, { 'b.ts': 'export const b = 2;\n' });
    git(dir, 'add', 'b.ts');
    writeFiles(dir, { 'src/old.ts': 'export const old = 2;\n', 'untracked.ts': '' });

    expect(await changedFiles(dir, dir, { base: 'main', staged: true })).toEqual(['a.ts', 'b.ts']);
  });
});

describe('changedFiles of the index', () => {
  it('lists only what is staged relative to HEAD', async () => {
    const dir = featureRepo();
    writeFiles(dir, { 'a.ts': 'export const a = 2;\n', 'added.ts': '' });
    git(dir, 'add', 'a.ts', 'added.ts');
    git(dir, 'mv', 'src/old.ts', 'src/new.ts');
    writeFiles(dir, { 'b.ts': 'export const b = 2;\n', 'untracked.ts': '' });

    expect(await changedFiles(dir, dir, { staged: true })).toEqual(['a.ts', 'added.ts', 'src/new.ts', 'src/old.ts']);
  });

  it('lists every staged file in a repository with no commits yet', async () => {
    const dir = repo({ 'a.ts': '', 'lib/b.ts': '', 'untracked.ts': '' }, { commit: false });
    git(dir, 'add', 'a.ts', 'lib/b.ts');

    expect(await changedFiles(dir, dir, { staged: true })).toEqual(['a.ts', 'lib/b.ts']);
  });

  it('needs a base or staged', async () => {
    const dir = featureRepo();
    await expect(changedFiles(dir, dir, {})).rejects.toThrow('needs a base, staged, or both');
  });
});

describe('changedFiles of a project in a subdirectory', () => {
  it('lists only files under the project, relative to it', async () => {
    const dir = featureRepo({
      'packages/app/src/a.ts': '',
      'packages/app-other/b.ts': '',
      'other/c.ts': '',
    });
    writeFiles(dir, { 'packages/app/src/a.ts': 'x', 'packages/app-other/b.ts': 'x', 'other/c.ts': 'x' });
    commitAll(dir, 'change everywhere');
    writeFiles(dir, { 'packages/app/new.ts': '', 'other/new.ts': '' });
    git(dir, 'add', 'packages/app/new.ts', 'other/new.ts');
    writeFiles(dir, { 'packages/app/untracked.ts': '', 'packages/app-other/untracked.ts': '' });

    const project = join(dir, 'packages/app');
    expect(await changedFiles(dir, project, { base: 'main' })).toEqual(['new.ts', 'src/a.ts', 'untracked.ts']);
    expect(await changedFiles(dir, project, { staged: true })).toEqual(['new.ts']);
  });
});

describe('readStagedState with what the result cache read of the index', () => {
  /** The state as the engine reads it alone, and as it reads it with the probe's listing of the index and git asked ahead. */
  async function bothWays(dir: string, project = dir): Promise<[StagedState, StagedState, KnownIndex]> {
    const probe = await probeResults({ cwd: project, staged: true, cacheLocation: join(mkdtempSync(join(tmpdir(), 'tw-staged-cache-')), 'c') });
    const known = probe?.index;
    if (!known) throw new Error('the probe read no index');
    const alone = await readStagedState(dir, project);
    const ahead = await readStagedState(dir, project, Number.POSITIVE_INFINITY, startStagedGit(project, project, known));
    return [alone, ahead, known];
  }

  it('is the same state, at the top level, with a rename, a partly staged file and an unstaged deletion', async () => {
    const dir = repo(BASE_FILES);
    git(dir, 'mv', 'src/old.ts', 'src/new.ts');
    writeFiles(dir, { 'a.ts': 'export const a = 2;\n', 'added.ts': 'export const added = 1;\n' });
    git(dir, 'add', 'a.ts', 'added.ts');
    writeFiles(dir, { 'a.ts': 'export const a = 3;\n' });
    unlinkSync(join(dir, 'b.ts'));
    const [alone, ahead, known] = await bothWays(dir);
    expect(known.root).toBe(realpathSync(dir));
    expect(known.head).toMatch(/^[0-9a-f]{40}$/);
    expect(ahead).toEqual(alone);
    expect(alone.indexTexts.get('a.ts')).toBe('export const a = 2;\n');
    expect(alone.changes.map((change) => change.path).sort()).toEqual(['a.ts', 'added.ts', 'src/new.ts']);
  });

  it('is the same state for a project in a subdirectory, named relative to it', async () => {
    // Its own configuration makes the subdirectory the root the probe lists.
    const dir = repo({ 'packages/app/src/a.ts': '', 'packages/app/tripwire.config.json': '{}\n', 'other/c.ts': '' });
    writeFiles(dir, { 'packages/app/new.ts': '', 'other/new.ts': '' });
    git(dir, 'add', 'packages/app/new.ts', 'other/new.ts');
    const [alone, ahead] = await bothWays(dir, join(dir, 'packages/app'));
    expect(ahead).toEqual(alone);
    expect(alone.files).toEqual(['new.ts', 'src/a.ts', 'tripwire.config.json']);
  });

  it('is the same state before the first commit', async () => {
    const dir = repo({ 'a.ts': '' }, { commit: false });
    git(dir, 'add', 'a.ts');
    const [alone, ahead, known] = await bothWays(dir);
    expect(known.head).toBeNull();
    expect(ahead).toEqual(alone);
    expect(alone.files).toEqual(['a.ts']);
  });

  it('reads the index again when what was read ahead is of another directory', async () => {
    const dir = repo({ 'packages/app/a.ts': '', 'b.ts': '' });
    const [, , known] = await bothWays(dir);
    const project = join(dir, 'packages/app');
    // The listing of the whole repository, offered for a project below it: not taken.
    const state = await readStagedState(dir, project, Number.POSITIVE_INFINITY, startStagedGit(project, project, known));
    expect(state.files).toEqual(['a.ts']);
  });

  it('reads the index again when what was read ahead is of another repository', async () => {
    // A repository nested in another one's work tree, untracked there: its own top level is not the outer one's.
    const outer = repo({ 'a.ts': '' });
    const inner = join(outer, 'inner');
    git(outer, 'init', '-q', inner);
    writeFiles(inner, { 'b.ts': '' });
    git(inner, 'add', 'b.ts');
    const [, , known] = await bothWays(inner);
    expect(known.root).toBe(realpathSync(inner));
    // The outer repository's index has nothing under inner/.
    const state = await readStagedState(outer, inner, Number.POSITIVE_INFINITY, startStagedGit(inner, inner, known));
    expect(state.files).toEqual([]);
    // Nor does the outer directory's listing tell the top level of a directory in the inner one.
    const [, , outerKnown] = await bothWays(outer);
    const ahead = startStagedGit(inner, outer, outerKnown);
    expect((await ahead.outputs)?.root).not.toBe(realpathSync(outer));
    // And the top level found ahead for the outer directory is not the inner one's.
    expect(await stagedTopLevel(inner, startStagedGit(outer, outer, outerKnown))).toBe(realpathSync(inner));
    expect(await stagedTopLevel(outer, startStagedGit(outer, outer, outerKnown))).toBe(realpathSync(outer));
  });
});
