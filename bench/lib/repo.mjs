// Git plumbing for the generated repositories: fixed identities and dates, so
// that the same size and seed give the same commit ids.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Bench Author',
  GIT_AUTHOR_EMAIL: 'bench@example.invalid',
  GIT_COMMITTER_NAME: 'Bench Author',
  GIT_COMMITTER_EMAIL: 'bench@example.invalid',
};

export function git(dir, args, extraEnv = {}) {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, ...IDENTITY, GIT_CONFIG_NOSYSTEM: '1', ...extraEnv },
  });
}

export function initRepository(dir) {
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'gc.auto', '0']);
  git(dir, ['config', 'core.autocrlf', 'false']);
}

export function commitAll(dir, message, date) {
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--no-verify', '-m', message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  return git(dir, ['rev-parse', 'HEAD']).trim();
}

/**
 * Stages one edit of a helper (a new export and a comment carrying `nonce`):
 * a different nonce per run keeps the edited file out of any fact cache.
 * Returns the original text, for restoreHelper.
 */
export function stageHelperEdit(dir, file, nonce) {
  const original = editHelper(dir, file, nonce);
  git(dir, ['add', '--', file]);
  return original;
}

/** The same edit, left unstaged (an edit in the work tree before a check). Returns the original text. */
export function editHelper(dir, file, nonce) {
  const absolute = path.join(dir, file);
  const original = readFileSync(absolute, 'utf8');
  writeFileSync(absolute, `${original}\n// edited by the benchmark: ${nonce}\nexport const STAGED_EDIT = '${nonce}';\n`);
  return original;
}

/** A line of prose added to a Markdown file, unstaged. Returns the original text. */
export function editText(dir, file, nonce) {
  const absolute = path.join(dir, file);
  const original = readFileSync(absolute, 'utf8');
  writeFileSync(absolute, `${original}\nOne more sentence, added by the benchmark (${nonce}).\n`);
  return original;
}

export function restoreHelper(dir, file, original) {
  git(dir, ['reset', '-q', '--', file]);
  writeFileSync(path.join(dir, file), original);
}

/** True when the work tree and the index equal HEAD. */
export function isClean(dir) {
  return git(dir, ['status', '--porcelain', '--untracked-files=all']).trim() === '';
}
