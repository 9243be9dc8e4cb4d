import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { findGitRoot } from '../repo/git.js';
import { writeFileAtomic } from '../util/fs.js';
import { toPosix, relativePosix } from '../util/path.js';

const run = promisify(execFile);

/** The first comment line of the hook `init --hook` writes: how a later run knows the hook is its own. */
export const HOOK_MARKER = '# tripwire: installed by `tripwire init --hook`';

export type HookResult =
  | { status: 'installed' | 'updated'; path: string }
  | { status: 'refused'; path: string; reason: string };

/**
 * Writes a plain `pre-commit` hook that runs `tripwire check --staged`, where
 * git looks for hooks: `git rev-parse --git-path hooks` honours
 * `core.hooksPath` and resolves a linked worktree to the hooks of the main
 * repository. A hook that is not tripwire's is kept unless `force`; a hooks
 * directory that husky owns is left to husky.
 */
export async function installHook(root: string, force: boolean): Promise<HookResult> {
  const top = await findGitRoot(root);
  if (top === null) throw new HookError(`--hook needs a git repository, and ${root} is not inside one`);
  const { stdout } = await run('git', ['rev-parse', '--git-path', 'hooks'], { cwd: root });
  const hooks = resolve(root, stdout.trim());
  const file = join(hooks, 'pre-commit');
  const shown = displayPath(top, file);
  const shownDir = displayPath(top, hooks);
  if (shownDir.split('/').includes('.husky')) {
    return { status: 'refused', path: shown, reason: `git runs the hooks in ${shownDir}, which husky manages: add \`tripwire check --staged\` to .husky/pre-commit instead (README, "husky + lint-staged")` };
  }
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const ours = existing?.includes(HOOK_MARKER) === true;
  if (existing !== null && !ours && !force) {
    return { status: 'refused', path: shown, reason: `${shown} exists and is not tripwire's: add \`npx --no -- tripwire check --staged\` to it, or run again with --force to replace it` };
  }
  writeFileAtomic(join(hooks, 'pre-commit'), hookScript(relativePosix(realpathSync(top), realpathSync(root))));
  chmodSync(file, 0o755);
  return { status: ours ? 'updated' : 'installed', path: shown };
}

export class HookError extends Error {
  override readonly name = 'HookError';
}

/** The hook itself: git runs it from the top of the work tree; tripwire runs from the directory of its config. */
export function hookScript(packageDir: string): string {
  const lines = [
    '#!/bin/sh',
    HOOK_MARKER,
    '# It checks what the commit holds (the index), not the work tree. `git commit --no-verify` skips it once.',
  ];
  if (packageDir !== '') lines.push(`cd ${shellQuote(packageDir)} || exit 2`);
  lines.push(
    'if [ -x node_modules/.bin/tripwire ]; then',
    '  exec node_modules/.bin/tripwire check --staged',
    'fi',
    'exec npx --no -- tripwire check --staged',
    '',
  );
  return lines.join('\n');
}

function shellQuote(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function displayPath(top: string, file: string): string {
  const rel = relative(top, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : toPosix(rel);
}
