import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobReader, findGitRoot, isIgnoredDirectory, listFilesWithIds } from '../../src/repo/git.js';

const listFiles = async (root: string, dir: string): Promise<string[]> => (await listFilesWithIds(root, dir, false)).files;
const listBlobIds = async (root: string, dir: string): Promise<Map<string, string>> => (await listFilesWithIds(root, dir, true)).blobIds;

// A test run from a git hook inherits these; they would point at the wrong repository.
delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

function write(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
}

const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tripwire-git-')));
  temps.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('findGitRoot', () => {
  let repo: string;
  beforeAll(() => {
    repo = tempDir();
    git(repo, 'init', '-q');
    write(repo, 'sub/deep/a.ts', '');
  });

  it('finds the top level from the root and from a subdirectory', async () => {
    expect(await findGitRoot(repo)).toBe(repo);
    expect(await findGitRoot(path.join(repo, 'sub/deep'))).toBe(repo);
  });

  it('returns null outside a work tree, inside .git and for a missing directory', async () => {
    expect(await findGitRoot(tempDir())).toBeNull();
    expect(await findGitRoot(path.join(repo, '.git'))).toBeNull();
    expect(await findGitRoot(path.join(repo, 'no-such-dir'))).toBeNull();
  });
});

describe('listFiles and listBlobIds', () => {
  let repo: string;
  beforeAll(() => {
    repo = tempDir();
    git(repo, 'init', '-q');
    write(repo, '.gitignore', 'dist/\n*.log\n');
    write(repo, 'README.md', '# demo\n');
    write(repo, '.github/workflows/ci.yml', 'on: push\n');
    write(repo, 'name with space.ts', 'export {};\n');
    write(repo, 'gone.ts', 'export {};\n');
    write(repo, 'edited.ts', 'export const a = 1;\n');
    write(repo, 'test/unit/a.test.ts', 'test\n');
    write(repo, 'test/deleted.test.ts', 'test\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'initial');

    unlinkSync(path.join(repo, 'gone.ts'));
    unlinkSync(path.join(repo, 'test/deleted.test.ts'));
    write(repo, 'edited.ts', 'export const a = 2;\n');
    write(repo, 'staged.ts', 'export {};\n');
    git(repo, 'add', 'staged.ts');
    write(repo, 'untracked.ts', 'export {};\n');
    write(repo, 'test/new.test.ts', 'test\n');
    write(repo, 'dist/bundle.js', '');
    write(repo, 'test/debug.log', '');
    write(repo, 'nested/inner.ts', '');
    git(path.join(repo, 'nested'), 'init', '-q');
  });

  it('lists tracked and untracked files, not ignored or deleted ones', async () => {
    expect(await listFiles(repo, repo)).toEqual([
      '.github/workflows/ci.yml',
      '.gitignore',
      'README.md',
      'edited.ts',
      'name with space.ts',
      'staged.ts',
      'test/new.test.ts',
      'test/unit/a.test.ts',
      'untracked.ts',
    ]);
  });

  it('lists a subdirectory relative to itself', async () => {
    expect(await listFiles(repo, path.join(repo, 'test'))).toEqual(['new.test.ts', 'unit/a.test.ts']);
  });

  it('rejects a directory outside the work tree', async () => {
    await expect(listFiles(repo, tempDir())).rejects.toThrow(/not inside/);
  });

  it('gives blob ids only for files unchanged since the index', async () => {
    const ids = await listBlobIds(repo, repo);
    expect(ids.get('README.md')).toBe(git(repo, 'hash-object', 'README.md').trim());
    expect(ids.get('staged.ts')).toBe(git(repo, 'hash-object', 'staged.ts').trim());
    expect(ids.has('edited.ts')).toBe(false);
    expect(ids.has('gone.ts')).toBe(false);
    expect(ids.has('untracked.ts')).toBe(false);
    const sub = await listBlobIds(repo, path.join(repo, 'test'));
    expect([...sub.keys()]).toEqual(['unit/a.test.ts']);
  });
});

describe('createBlobReader', () => {
  let repo: string;
  const binary = Buffer.from([0x00, 0x0a, 0xff, 0x0a, 0x0a, 0x00, 0x0d, 0x0a]);
  const large = Buffer.alloc(1024 * 1024 + 17, 'x\n\0');

  beforeAll(() => {
    repo = tempDir();
    git(repo, 'init', '-q');
    write(repo, 'src/map.ts', 'export const TIERS = { a: "gate" };\n');
    write(repo, 'dir with space/file name.ts', 'spaced\n');
    write(repo, 'blob.bin', binary);
    write(repo, 'large.bin', large);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'v1');
    write(repo, 'src/map.ts', 'export const TIERS = { a: "periodic" };\n');
    git(repo, 'commit', '-q', '-am', 'v2');
    write(repo, 'src/map.ts', 'staged version\n');
    git(repo, 'add', 'src/map.ts');
  });

  it('reads two revisions of a file, the index, and nothing for a missing path', async () => {
    const reader = createBlobReader(repo);
    try {
      const [v1, v2, staged, missing, missingRev, tree] = await Promise.all([
        reader.read('HEAD~1', 'src/map.ts'),
        reader.read('HEAD', 'src/map.ts'),
        reader.read('', 'src/map.ts'),
        reader.read('HEAD', 'src/nope.ts'),
        reader.read('no-such-branch', 'src/map.ts'),
        reader.read('HEAD', 'src'),
      ]);
      expect(v1?.toString('utf8')).toBe('export const TIERS = { a: "gate" };\n');
      expect(v2?.toString('utf8')).toBe('export const TIERS = { a: "periodic" };\n');
      expect(staged?.toString('utf8')).toBe('staged version\n');
      expect(missing).toBeNull();
      expect(missingRev).toBeNull();
      expect(tree).toBeNull();
    } finally {
      await reader.close();
    }
  });

  it('with maxBytes, answers a larger blob with its size only and stays in step for the reads after it', async () => {
    // A blob at the merge base was read whole whatever its size: one generated file could cost gigabytes.
    const reader = createBlobReader(repo);
    try {
      const reads = await Promise.all([
        reader.read('HEAD', 'large.bin', large.length - 1),
        reader.read('HEAD', 'blob.bin', large.length - 1),
        reader.read('HEAD', 'large.bin', large.length),
        reader.read('HEAD', 'src/map.ts', 1),
        reader.read('HEAD', 'src', 1),
      ]);
      expect(reads[0]).toEqual({ oversized: large.length });
      expect(reads[1]).toEqual(binary);
      expect(reads[2]).toEqual(large);
      expect(reads[3]).toEqual({ oversized: Buffer.byteLength('export const TIERS = { a: "periodic" };\n') });
      // A tree is never a blob, whatever its size.
      expect(reads[4]).toBeNull();
    } finally {
      await reader.close();
    }
  });

  it('keeps binary content, large content and paths with spaces intact', async () => {
    const reader = createBlobReader(repo);
    try {
      expect(await reader.read('HEAD', 'blob.bin')).toEqual(binary);
      expect((await reader.read('HEAD', 'dir with space/file name.ts'))?.toString('utf8')).toBe('spaced\n');
      const reads = await Promise.all([reader.read('HEAD', 'large.bin'), reader.read('HEAD', 'blob.bin'), reader.read('HEAD', 'large.bin')]);
      expect(reads[0]).toEqual(large);
      expect(reads[1]).toEqual(binary);
      expect(reads[2]).toEqual(large);
    } finally {
      await reader.close();
    }
  });

  it('answers many reads in order through one process', async () => {
    const reader = createBlobReader(repo);
    const paths = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 'src/map.ts' : i % 3 === 1 ? 'missing.ts' : 'blob.bin'));
    const contents = await Promise.all(paths.map((p) => reader.read('HEAD', p)));
    await reader.close();
    contents.forEach((content, i) => {
      if (i % 3 === 0) expect(content?.toString('utf8')).toContain('periodic');
      else if (i % 3 === 1) expect(content).toBeNull();
      else expect(content).toEqual(binary);
    });
  });

  it('refuses reads after close', async () => {
    const reader = createBlobReader(repo);
    expect(await reader.read('HEAD', 'blob.bin')).toEqual(binary);
    await reader.close();
    await expect(reader.read('HEAD', 'blob.bin')).rejects.toThrow(/closed/);
  });

  it('closes without ever starting git', async () => {
    await expect(createBlobReader(repo).close()).resolves.toBeUndefined();
  });

  it('rejects reads when git cannot run in the directory', async () => {
    const reader = createBlobReader(path.join(repo, 'no-such-dir'));
    await expect(reader.read('HEAD', 'blob.bin')).rejects.toThrow();
    await reader.close();
  });
});

describe('isIgnoredDirectory', () => {
  it('tells whether git ignores the directory itself', async () => {
    const repo = tempDir();
    git(repo, 'init', '-q');
    write(repo, '.gitignore', 'bench/out/\n');
    write(repo, 'bench/out/synthetic/a.ts', '');
    write(repo, 'bench/gen.ts', '');
    expect(await isIgnoredDirectory(repo, repo)).toBe(false);
    expect(await isIgnoredDirectory(repo, path.join(repo, 'bench'))).toBe(false);
    expect(await isIgnoredDirectory(repo, path.join(repo, 'bench/out'))).toBe(true);
    expect(await isIgnoredDirectory(repo, path.join(repo, 'bench/out/synthetic'))).toBe(true);
  });
});
