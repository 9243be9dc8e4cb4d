import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

// A git command started before the run asks for it: the CLI's launcher starts
// a work-tree check's listing before the bundle loads (engine/early-git.ts
// says which), and hands it over; gitOutput (git.ts) takes it once, for the
// directory and arguments it was started with.

/** One git command's exit code and output (gitOutput). */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A git child process: fails only when git cannot be started at all. */
export function runGit(cwd: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((done, fail) => {
    execFile('git', [...args], { cwd, encoding: 'utf8', maxBuffer: Number.POSITIVE_INFINITY }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') fail(error);
      else done({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** A command started early: where, with what arguments, and its output to come. */
export interface EarlyGit {
  cwd: string;
  args: readonly string[];
  output: Promise<GitResult>;
}

/** Starts `git <args>` in `cwd`, to be taken by the gitOutput that asks for it (once handed over). */
export function startGit(cwd: string, args: readonly string[]): EarlyGit {
  const output = runGit(cwd, args);
  // Never taken (git missing, another directory listed): not an unhandled rejection.
  output.catch(() => undefined);
  return { cwd: resolve(cwd), args, output };
}

let handed: EarlyGit | null = null;

/** Hands over the command the launcher's copy of this module started. */
export function handEarlyGit(early: EarlyGit): void {
  handed = early;
}

/** The output of this very command started early in `cwd`, once; undefined otherwise. */
export function takeEarlyGit(cwd: string, args: readonly string[]): Promise<GitResult> | undefined {
  if (!handed || handed.cwd !== resolve(cwd) || handed.args.length !== args.length || handed.args.some((arg, i) => arg !== args[i])) return undefined;
  const { output } = handed;
  handed = null;
  return output;
}
