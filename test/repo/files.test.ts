import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverFiles, readText } from '../../src/repo/files.js';
import { discoverFilesSync } from '../../src/repo/files-sync.js';
import { findGitRoot } from '../../src/repo/git.js';
import { git, makeGitRepo } from '../support/repo.js';

// A test run from a git hook inherits these; they would point at the wrong repository.
delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

function write(root: string, rel: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
}

const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tripwire-files-')));
  temps.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('discoverFiles outside git', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
    write(dir, '.gitignore', '*.log\nbuild/\n/only-root.txt\ndocs/**\n!docs/keep.md\n');
    write(dir, 'pkg/.gitignore', '!keep.log\nsecret/\n');
    write(dir, 'a.ts', '');
    write(dir, 'a.log', '');
    write(dir, 'only-root.txt', '');
    write(dir, 'build/out.js', '');
    write(dir, 'docs/drop.md', '');
    write(dir, 'docs/keep.md', '');
    write(dir, 'pkg/keep.log', '');
    write(dir, 'pkg/other.log', '');
    write(dir, 'pkg/only-root.txt', '');
    write(dir, 'pkg/build/deep/out.js', '');
    write(dir, 'pkg/secret/key.txt', '');
    write(dir, 'secret/visible.txt', '');
    write(dir, '.config/tool.json', '{}');
    write(dir, 'node_modules/openai/index.js', '');
    write(dir, 'pkg/node_modules/x/index.js', '');
    symlinkSync('a.ts', path.join(dir, 'link.ts'));
    symlinkSync('pkg', path.join(dir, 'linked-dir'));
  });

  it('is not inside a git work tree (precondition)', async () => {
    expect(await findGitRoot(dir)).toBeNull();
  });

  it('walks a directory whose .git is not a repository, rather than listing nothing', async () => {
    const broken = tempDir();
    mkdirSync(path.join(broken, '.git'));
    write(broken, 'src/a.ts', '');
    expect(await discoverFiles(broken)).toEqual({ git: false, files: ['src/a.ts'], blobIds: new Map(), unfollowed: new Map(), gitlinks: [] });
  });

  it('walks the directory, honouring root and nested .gitignore files', async () => {
    expect(await discoverFiles(dir, { blobIds: true })).toEqual({
      git: false,
      // Outside git no content is known without reading it.
      blobIds: new Map(),
      files: [
        '.config/tool.json',
        '.gitignore',
        'a.ts',
        'docs/keep.md',
        'link.ts',
        'pkg/.gitignore',
        'pkg/keep.log',
        'pkg/only-root.txt',
        'secret/visible.txt',
      ],
      // linked-dir points at pkg/, whose files are listed on their own.
      unfollowed: new Map(),
      gitlinks: [],
    });
  });
});

describe('discoverFiles inside git', () => {
  let repo: string;
  beforeAll(() => {
    repo = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: repo });
    write(repo, '.gitignore', 'ignored/\n');
    write(repo, 'src/a.ts', '');
    write(repo, 'ignored/b.ts', '');
    write(repo, 'ignored/.gitignore', '*.log\n');
    write(repo, 'ignored/c.log', '');
    execFileSync('git', ['add', '-A'], { cwd: repo });
  });

  it('uses git from the root and from a subdirectory', async () => {
    expect(await discoverFiles(repo)).toEqual({ git: true, files: ['.gitignore', 'src/a.ts'], blobIds: new Map(), unfollowed: new Map(), gitlinks: [] });
    expect(await discoverFiles(path.join(repo, 'src'))).toEqual({ git: true, files: ['a.ts'], blobIds: new Map(), unfollowed: new Map(), gitlinks: [] });
  });

  it('gives the blob id of each file git knows unchanged, relative to the listed directory, and none for an edited or untracked file', async () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    write(dir, 'src/same.ts', 'export const same = 1;\n');
    write(dir, 'src/edited.ts', 'export const edited = 1;\n');
    execFileSync('git', ['add', '-A'], { cwd: dir });
    write(dir, 'src/edited.ts', 'export const edited = 2;\n');
    write(dir, 'src/new.ts', 'export {};\n');
    const id = execFileSync('git', ['hash-object', 'src/same.ts'], { cwd: dir, encoding: 'utf8' }).trim();
    expect(await discoverFiles(path.join(dir, 'src'), { blobIds: true })).toEqual({ git: true, files: ['edited.ts', 'new.ts', 'same.ts'], blobIds: new Map([['same.ts', id]]), unfollowed: new Map(), gitlinks: [] });
  });

  it('walks a directory that git ignores instead of listing nothing', async () => {
    expect(await discoverFiles(path.join(repo, 'ignored'))).toEqual({ git: false, files: ['.gitignore', 'b.ts'], blobIds: new Map(), unfollowed: new Map(), gitlinks: [] });
  });
});

describe('readText', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
    write(dir, 'ok.ts', 'export {};\n');
    write(dir, 'bom.ts', '\uFEFFexport {};\n');
    write(dir, 'locked.ts', '');
    chmodSync(path.join(dir, 'locked.ts'), 0o000);
    mkdirSync(path.join(dir, 'folder'));
  });

  it('reads text and drops a byte order mark', async () => {
    expect(await readText(dir, 'ok.ts')).toEqual({ ok: true, text: 'export {};\n' });
    expect(await readText(dir, 'bom.ts')).toEqual({ ok: true, text: 'export {};\n' });
  });

  it('turns a missing file and a directory into an error without the absolute path', async () => {
    expect(await readText(dir, 'missing.ts')).toEqual({ ok: false, error: 'ENOENT: no such file or directory' });
    expect(await readText(dir, 'folder')).toEqual({ ok: false, error: 'EISDIR: illegal operation on a directory' });
  });

  // root reads any file whatever its mode.
  it.skipIf(process.getuid?.() === 0)('turns a permission error into an error', async () => {
    expect(await readText(dir, 'locked.ts')).toEqual({ ok: false, error: 'EACCES: permission denied' });
  });
});

describe('discoverFiles and symbolic links', () => {
  function linkedRepo(): { dir: string; outside: string } {
    const dir = makeGitRepo({ 'docs/guide/README.md': '# Guide\n', 'skills/review/SKILL.md': '# Review\n', 'packages/cli/index.ts': 'export {};\n' }, { commit: false });
    const outside = tempDir();
    write(outside, 'secret.md', 'not ours\n');
    symlinkSync('../../skills', path.join(dir, 'packages/cli/skills'));
    symlinkSync('docs/guide/README.md', path.join(dir, 'README.md'));
    symlinkSync(path.join(outside, 'secret.md'), path.join(dir, 'docs/secret.md'));
    symlinkSync('gone.md', path.join(dir, 'docs/dangling.md'));
    symlinkSync('guide/README.md\n', path.join(dir, 'docs/newline.md'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'links');
    symlinkSync('guide', path.join(dir, 'docs/untracked-dir'));
    return { dir, outside };
  }

  it('drops a link to a directory inside the repository, keeps one to a file, and marks those it will not follow', async () => {
    const { dir, outside } = linkedRepo();
    const found = await discoverFiles(dir);
    expect(found.files).toEqual(['README.md', 'docs/dangling.md', 'docs/guide/README.md', 'docs/newline.md', 'docs/secret.md', 'packages/cli/index.ts', 'skills/review/SKILL.md']);
    expect(found.unfollowed).toEqual(
      new Map([
        ['docs/dangling.md', 'symlink points to nothing, not followed: docs/dangling.md → gone.md does not exist, so nothing was checked there. Fix or remove the link.'],
        ['docs/newline.md', 'symlink points to nothing, not followed: docs/newline.md → "guide/README.md\\n" does not exist, so nothing was checked there. Fix or remove the link.'],
        ['docs/secret.md', `symlink points outside the repository, not followed: docs/secret.md → ${path.join(outside, 'secret.md')}. Nothing it points to was checked; commit the file itself, or list the link in ignore.`],
      ]),
    );
    expect(discoverFilesSync(dir)).toEqual(found);
  });

  it('treats the repository, not the listed subdirectory, as the boundary', async () => {
    const { dir } = linkedRepo();
    const found = await discoverFiles(path.join(dir, 'packages/cli'));
    expect(found.files).toEqual(['index.ts']);
    expect(found.unfollowed).toEqual(new Map());
  });

  it('settles links the same way outside git', async () => {
    const dir = tempDir();
    write(dir, 'skills/review/SKILL.md', '# Review\n');
    symlinkSync('skills', path.join(dir, 'all-skills'));
    symlinkSync('/nonexistent/tripwire-target', path.join(dir, 'broken.md'));
    const found = await discoverFiles(dir);
    expect(found.files).toEqual(['broken.md', 'skills/review/SKILL.md']);
    expect([...found.unfollowed.keys()]).toEqual(['broken.md']);
  });
});
