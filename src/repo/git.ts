import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { Socket } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { SimpleGit, simpleGit as SimpleGitFactory, SimpleGitOptions } from 'simple-git';
import { runGit, takeEarlyGit, type GitResult } from './early-git.js';
import { lsFilesArgs, parseListing, type FileListing } from './listing.js';
import { isSymlink } from './symlinks.js';
import { toPosix } from '../util/path.js';

export type { FileListing } from './listing.js';

let simpleGitFactory: ((options: Partial<SimpleGitOptions>) => SimpleGit) | undefined;

/** A simple-git client for `baseDir`; the library loads on first use, so commands that never reach git do not pay for it. */
export function simpleGit(options: Partial<SimpleGitOptions>): SimpleGit {
  simpleGitFactory ??= (createRequire(import.meta.url)('simple-git') as { simpleGit: typeof SimpleGitFactory }).simpleGit;
  return simpleGitFactory(options);
}

/**
 * One git command's exit code and output, for the listing every check starts
 * with: a plain child process, because loading simple-git costs more than
 * these commands do; taken from the launcher's when it started this very
 * command (early-git.ts). Fails only when git cannot be started at all.
 */
export function gitOutput(cwd: string, args: readonly string[]): Promise<GitResult> {
  return takeEarlyGit(cwd, args) ?? runGit(cwd, args);
}

/** What the diff readers ask of git: one command's standard output. */
export interface RawGit {
  raw(args: string[]): Promise<string>;
}

/** Plain child processes for the commands of a check (`--staged`, `--base`): loading simple-git costs more than they do. */
export function plainGit(root: string): RawGit {
  return { raw: (args) => gitRaw(root, args) };
}

/** git's standard output; a non-zero exit is an error carrying git's message. */
async function gitRaw(cwd: string, args: readonly string[]): Promise<string> {
  const result = await gitOutput(cwd, args);
  if (result.code !== 0) throw new Error(`git ${args[0] ?? ''} failed (exit ${result.code}): ${result.stderr.trim()}`);
  return result.stdout;
}

/** The top level of the work tree that contains `dir`, or null outside one (or inside `.git`). */
export async function findGitRoot(dir: string): Promise<string | null> {
  try {
    const result = await gitOutput(dir, ['rev-parse', '--show-toplevel']);
    const top = result.stdout.trim();
    return result.code !== 0 || top === '' ? null : path.resolve(top);
  } catch {
    return null;
  }
}

/** Whether `dir` is inside a git directory (a bare repository, or `.git` of a work tree): git has no work tree there. */
export async function isInsideGitDir(dir: string): Promise<boolean> {
  try {
    const result = await gitOutput(dir, ['rev-parse', '--is-inside-git-dir']);
    return result.code === 0 && result.stdout.trim() === 'true';
  } catch {
    return false;
  }
}

/**
 * `dir` relative to `root` as a POSIX prefix ('' for the root itself). Told
 * at once, not awaited: a git command that needs it is spawned before the
 * caller's synchronous work goes on (a staged check's diffs, started while
 * the engine loads, would otherwise wait for it).
 */
export function subdirectory(root: string, dir: string): string {
  // git reports the real path of the top level; compare real paths so a
  // symlinked temp dir or checkout does not look like it is outside the repo.
  const [realRoot, realDir] = [realpathSync.native(root), realpathSync.native(dir)];
  const rel = path.relative(realRoot, realDir);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new Error(`${dir} is not inside the git work tree ${root}`);
  }
  return toPosix(rel);
}

/**
 * Whether git ignores `dir` itself (a generated repository under an ignored
 * `out/`): git would list none of its files, so it is not git's to list.
 */
export async function isIgnoredDirectory(root: string, dir: string): Promise<boolean> {
  const prefix = subdirectory(root, dir);
  if (prefix === '') return false;
  // check-ignore exits 0 when the path is ignored and 1 when it is not.
  const result = await gitOutput(root, ['check-ignore', '-q', '--', prefix]);
  if (result.code > 1) throw new Error(`git check-ignore failed (exit ${result.code}): ${result.stderr.trim()}`);
  return result.code === 0;
}

/**
 * Files under `dir` that git would see: tracked and untracked-but-not-ignored,
 * minus tracked files deleted from the work tree. Paths are relative to `dir`,
 * POSIX, sorted and unique. `root` is the work tree top level (findGitRoot).
 * With `withIds`, also the blob id of each tracked file git considers
 * unchanged in the work tree (`--modified` makes git compare stat data); a
 * file without one (modified, untracked) must be keyed by its content.
 */
export async function listFilesWithIds(root: string, dir: string, withIds: boolean): Promise<FileListing> {
  const prefix = subdirectory(root, dir);
  return parseListing(prefix, await gitRaw(root, lsFilesArgs(prefix, withIds)), withIds, (fullName) => isSymlink(path.join(root, fullName)));
}

/**
 * The listing of `dir` when it is the top level of a work tree (it holds
 * `.git`): one git process, with no need to find the top level or to ask
 * whether git ignores `dir`. Null when git cannot list it.
 */
export async function listTopLevel(dir: string, withIds: boolean): Promise<FileListing | null> {
  const result = await gitOutput(dir, lsFilesArgs('', withIds));
  return result.code === 0 ? parseListing('', result.stdout, withIds, (fullName) => isSymlink(path.join(dir, fullName))) : null;
}

/** A blob over the size a read allowed: git's size of it, its bytes skipped, never held. */
export interface OversizedBlob {
  readonly oversized: number;
}

export function isOversized(blob: Buffer | OversizedBlob | null): blob is OversizedBlob {
  return blob !== null && !Buffer.isBuffer(blob);
}

export interface BlobReader {
  /**
   * The content of `path` (relative to the work tree root) at `rev`; `rev` ''
   * reads the index. Null when the revision has no such file; with `maxBytes`,
   * a larger blob is its size only (its bytes are read past, not kept).
   */
  read(rev: string, path: string, maxBytes?: number): Promise<Buffer | OversizedBlob | null>;
  /** Ends the git process once the reads already asked for are answered. */
  close(): Promise<void>;
}

interface PendingRead {
  resolve: (content: Buffer | OversizedBlob | null) => void;
  reject: (error: Error) => void;
  maxBytes: number;
}

const HEADER = /^[0-9a-f]{40,64} (\S+) (\d+)$/;

function readOneBlob(root: string, object: string, maxBytes: number): Promise<Buffer | OversizedBlob | null> {
  return new Promise((resolve) => {
    execFile('git', ['cat-file', '-s', object], { cwd: root, encoding: 'utf8' }, (sizeError, sizeText) => {
      const size = Number(sizeText.trim());
      if (sizeError || !Number.isFinite(size)) return resolve(null);
      if (size > maxBytes) return resolve({ oversized: size });
      execFile('git', ['cat-file', 'blob', object], { cwd: root, encoding: 'buffer', maxBuffer: Number.POSITIVE_INFINITY }, (error, stdout) => resolve(error ? null : stdout));
    });
  });
}

/**
 * Reads many blobs through one `git cat-file --batch` process (one process
 * per file costs 6-8x more). simple-git cannot stream it, hence the spawn.
 * The process is started at the first read and does not keep Node alive while
 * idle, so a forgotten close() cannot hang the CLI.
 */
export function createBlobReader(root: string): BlobReader {
  let child: ChildProcessWithoutNullStreams | undefined;
  let exited: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  let closed = false;
  let stderr = '';
  const queue: PendingRead[] = [];
  let buffered: Buffer = Buffer.alloc(0);
  /** The content being received: copied into `target`, or only counted (`skip`) when the read did not want a blob that large. */
  let body: { target: Buffer | null; filled: number; length: number; isBlob: boolean; oversized: number | null } | undefined;

  function setActive(active: boolean): void {
    if (!child) return;
    for (const handle of [child, child.stdin, child.stdout, child.stderr]) {
      if (handle instanceof Socket || handle === child) {
        if (active) handle.ref();
        else handle.unref();
      }
    }
  }

  function settle(content: Buffer | OversizedBlob | null): void {
    queue.shift()?.resolve(content);
    if (queue.length === 0) setActive(false);
  }

  function fail(error: Error): void {
    failure ??= error;
    for (const pending of queue.splice(0)) pending.reject(failure);
  }

  function onData(chunk: Buffer): void {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    for (;;) {
      if (body) {
        const take = Math.min(body.length - body.filled, buffered.length);
        if (body.target) buffered.copy(body.target, body.filled, 0, take);
        body.filled += take;
        buffered = buffered.subarray(take);
        if (body.filled < body.length) return;
        const done = body;
        body = undefined;
        // The content is followed by one LF that is not part of it.
        settle(done.oversized !== null ? { oversized: done.oversized } : done.isBlob && done.target ? done.target.subarray(0, done.length - 1) : null);
        continue;
      }
      const eol = buffered.indexOf(0x0a);
      if (eol === -1) return;
      const header = buffered.toString('utf8', 0, eol);
      buffered = buffered.subarray(eol + 1);
      const match = HEADER.exec(header);
      if (!match) {
        // `<object> missing` or `<object> ambiguous`: no content follows.
        settle(null);
        continue;
      }
      const size = Number(match[2]);
      const isBlob = match[1] === 'blob';
      const tooLarge = isBlob && size > (queue[0]?.maxBytes ?? Number.POSITIVE_INFINITY);
      body = { target: tooLarge ? null : Buffer.allocUnsafe(size + 1), filled: 0, length: size + 1, isBlob, oversized: tooLarge ? size : null };
    }
  }

  function start(): ChildProcessWithoutNullStreams {
    const proc = spawn('git', ['cat-file', '--batch'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    proc.stdout.on('data', onData);
    proc.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    proc.stdin.on('error', (error) => fail(error));
    exited = new Promise((resolve) => {
      proc.on('error', (error) => {
        fail(error);
        resolve();
      });
      proc.on('close', (code, signal) => {
        if (queue.length > 0) {
          const reason = stderr.trim() || `exit ${code ?? signal ?? 'unknown'}`;
          fail(new Error(`git cat-file --batch ended early: ${reason}`));
        }
        resolve();
      });
    });
    return proc;
  }

  return {
    read(rev, filePath, maxBytes = Number.POSITIVE_INFINITY) {
      if (closed) return Promise.reject(new Error('the blob reader is closed'));
      if (failure) return Promise.reject(failure);
      const object = `${rev}:${filePath}`;
      // The batch protocol is line-based; a newline in a path needs its own process.
      if (object.includes('\n')) return readOneBlob(root, object, maxBytes);
      child ??= start();
      const proc = child;
      return new Promise((resolve, reject) => {
        queue.push({ resolve, reject, maxBytes });
        setActive(true);
        proc.stdin.write(`${object}\n`);
      });
    },
    close() {
      closed = true;
      // Waiting for the exit must keep the process alive, or an awaited close() ends it with code 13.
      setActive(true);
      child?.stdin.end();
      return exited;
    },
  };
}

/** The identity git would sign a commit with in `root`: user.email, else user.name; null when neither is configured. */
export async function gitIdentity(root: string): Promise<string | null> {
  const git = simpleGit({ baseDir: root });
  for (const key of ['user.email', 'user.name']) {
    try {
      const value = (await git.raw(['config', '--get', key])).trim();
      if (value !== '') return value;
    } catch {
      // not configured: try the next key
    }
  }
  return null;
}
