import { basename } from 'node:path';
import { compileGlobs } from '../util/glob.js';

// Frozen runners: deterministic suites that are not JavaScript (a `run-*.sh`, a `check_*.py`). Their pin is
// the count of assertion call sites (calls of names the owner gives, such as `check`, `expect_invalid`,
// `assert_*`) and the rosters that name them (a runner script or a CI file that lists each suite).

export type RunnerLanguage = 'shell' | 'python';

/** The language of a runner by its extension or shebang; null for a file that is neither. */
export function runnerLanguage(path: string, text: string): RunnerLanguage | null {
  if (/\.(?:sh|bash|zsh|ksh)$/.test(path)) return 'shell';
  if (/\.py$/.test(path)) return 'python';
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  const interpreter = basename(shebang?.[1] === '/usr/bin/env' ? (shebang[2] ?? '') : (shebang?.[1] ?? ''));
  if (/^(?:ba|z|k|da)?sh$/.test(interpreter)) return 'shell';
  if (/^python[\d.]*$/.test(interpreter)) return 'python';
  return null;
}

/** `check`, `expect_invalid`, `assert_*`: names, with `*` for any run of word characters. */
export function parseAssertNames(spec: string): string[] {
  return [...new Set(spec.split(',').map((name) => name.trim()).filter((name) => name !== ''))];
}

/** A name is a word with optional `*` wildcards: nothing else can be turned into a pattern safely. */
export function invalidAssertName(name: string): boolean {
  return !/^[A-Za-z_*][\w*]*$/.test(name) || /^\*+$/.test(name);
}

/**
 * The 1-based lines of the assertion call sites in a runner: in shell, a
 * command whose word is one of `names` (at the start of a line or after
 * `;`, `&&`, `||`, `|`, `!`, `then`, `do`, `else`); in Python, a call of one
 * of them (`check(…)`, `self.assert_equal(…)`), or the `assert` statement
 * when `assert` is a name. Comments do not count; several sites on a line count each.
 */
export function assertionSites(text: string, language: RunnerLanguage, names: readonly string[]): number[] {
  const words = names.map((name) => name.split('*').map(escapeRegExp).join('\\w*')).join('|');
  const call =
    language === 'shell'
      ? new RegExp(`(?:^|[;&|!({]|\\b(?:then|do|else|if|while|until)\\b)\\s*(?:${words})(?=\\s|;|&|\\||\\)|$)`, 'g')
      : new RegExp(`(?<![\\w])(?:[A-Za-z_][\\w.]*\\.)?(?:${words})\\s*\\(`, 'g');
  const statement = language === 'python' && names.includes('assert') ? /^\s*assert\b/ : null;
  const lines: number[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = stripComment(raw);
    const count = (line.match(call)?.length ?? 0) + (statement?.test(line) === true ? 1 : 0);
    for (let i = 0; i < count; i++) lines.push(index + 1);
  }
  return lines;
}

/** The code of a line: its `#` comment cut (a `#` at the start or after whitespace), quoted text blanked. */
function stripComment(line: string): string {
  let quote: string | null = null;
  let code = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote !== null) {
      if (c === '\\') {
        code += '  ';
        i++;
      } else if (c === quote) {
        quote = null;
        code += c;
      } else code += ' ';
    } else if (c === '"' || c === "'") {
      quote = c;
      code += c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return code;
    else code += c;
  }
  return code;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Files that can list suites: CI workflows, make/just/task files, package.json, shell runners. */
const ROSTER_GLOBS = ['.github/workflows/*.{yml,yaml}', '.gitlab-ci.yml', '**/Makefile', '**/*.mk', '**/justfile', '**/Taskfile.{yml,yaml}', '**/package.json', '**/tox.ini', '**/noxfile.py', '**/*.{sh,bash}', '**/run-*'];
const isRosterCandidate = compileGlobs(ROSTER_GLOBS);

export function canBeRoster(path: string): boolean {
  return isRosterCandidate(path);
}

/**
 * Whether a roster's text names the runner: by its repository path; by its
 * file name as a word when the name has an extension (`run-unit.sh`,
 * `check_config.py`); by a path ending in its name otherwise (`./gate`,
 * `scripts/gate`), since a bare word such as `gate` is not a reference.
 */
export function namesRunner(rosterText: string, runner: string): boolean {
  const name = basename(runner);
  const word = escapeRegExp(name);
  const patterns = [`(?<![\\w.\\-])${escapeRegExp(runner)}`, name.includes('.') ? `(?<![\\w.\\-])${word}` : `/${word}`];
  return new RegExp(`(?:${patterns.join('|')})(?![\\w.\\-])`).test(rosterText);
}
