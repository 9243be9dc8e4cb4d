import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handEarlyGit, startEarlyGit } from '../../src/engine/early-git.js';
import { takeEarlyGit } from '../../src/repo/early-git.js';
import { gitOutput } from '../../src/repo/git.js';
import { lsFilesArgs, parseListing } from '../../src/repo/listing.js';
import { makeGitRepo } from '../support/repo.js';
import { temporaryDirs } from '../support/temp.js';

// The CLI's launcher starts a work-tree check's listing before its bundle
// loads and hands it over (src/engine/early-git.ts, src/repo/early-git.ts); gitOutput takes it once,
// for the same directory and arguments. Taken, it is the listing as of its
// start: a file added after it is in the next listing only.

const { track } = temporaryDirs('early-git');
const LISTING = lsFilesArgs('', true);
const listed = (stdout: string): string[] => parseListing('', stdout, true).files;

describe('the early listing', () => {
  it('is taken once by the run that asks for it, as it was when it started', async () => {
    const repo = track(makeGitRepo({ 'tests/free.test.ts': 'export {};\n' }));
    const early = startEarlyGit(['check', '--format', 'json'], repo);
    expect(early?.args).toEqual(LISTING);
    if (!early) return;
    await early.output;
    writeFileSync(join(repo, 'added.ts'), 'export {};\n');
    handEarlyGit(early);
    expect(listed((await gitOutput(repo, LISTING)).stdout)).toEqual(['tests/free.test.ts']);
    expect(listed((await gitOutput(repo, LISTING)).stdout)).toEqual(['added.ts', 'tests/free.test.ts']);
  });

  it('is not taken for another directory or other arguments', async () => {
    const repo = track(makeGitRepo({ 'a.ts': 'export {};\n' }));
    const early = startEarlyGit(['check'], repo);
    if (!early) throw new Error('no early listing at the top level of a work tree');
    handEarlyGit(early);
    expect(takeEarlyGit(join(repo, 'sub'), LISTING)).toBeUndefined();
    expect(takeEarlyGit(repo, lsFilesArgs('', false))).toBeUndefined();
    expect(takeEarlyGit(repo, LISTING)).toBe(early.output);
    expect(takeEarlyGit(repo, LISTING)).toBeUndefined();
  });

  it('starts none for a run that lists the index, asks no cache, is not a check, or is below the top level', () => {
    const repo = track(makeGitRepo({ 'sub/a.ts': 'export {};\n' }));
    mkdirSync(join(repo, 'sub'), { recursive: true });
    for (const argv of [['check', '--staged'], ['check', '--base', 'main'], ['check', '--base=main'], ['check', '--no-cache'], ['init'], ['select', '--base', 'main']]) {
      expect(startEarlyGit(argv, repo), argv.join(' ')).toBeNull();
    }
    expect(startEarlyGit(['check'], join(repo, 'sub'))).toBeNull();
    // After `--`, an argument is a path, not an option.
    expect(startEarlyGit(['check', '--', '--staged'], repo)).not.toBeNull();
  });
});
