import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/version.js';

/** A real git repository in a temporary directory, with `files` committed. */
export function makeGitRepo(files: Record<string, string>, options: { commit?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'tripwire-test-'));
  writeFiles(dir, files);
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'tripwire test');
  git('config', 'commit.gpgsign', 'false');
  if (options.commit !== false) {
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
  }
  return dir;
}

/** Runs git in `cwd` with a pinned identity and no signing; returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=tripwire test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const manifest: { bin: { tripwire: string } } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));

/** The CLI as the package ships it (its `bin`: the bundle, dist/cli/bin.js), relative to the package root; `npm test` builds it first. */
export const CLI_BIN = manifest.bin.tripwire;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns the built CLI (CLI_BIN, or `bin`: a copy of it), as a user or a hook would.
 * `killAfterMs` is a safety net for a case that used to hang, so that the
 * old code fails the test instead of stalling the suite; never a time limit
 * the test asserts (benchmarks measure speed).
 */
export function runCli(args: string[], cwd: string, env: Record<string, string> = {}, options: { killAfterMs?: number; bin?: string } = {}): CliRun {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env };
  delete childEnv.FORCE_COLOR;
  const result = spawnSync(process.execPath, [options.bin ?? join(PACKAGE_ROOT, CLI_BIN), ...args], {
    cwd,
    encoding: 'utf8',
    env: childEnv,
    maxBuffer: 1 << 30,
    ...(options.killAfterMs !== undefined && { timeout: options.killAfterMs, killSignal: 'SIGKILL' }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
