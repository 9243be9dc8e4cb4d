import { commandName as basename } from '../util/path.js';
import type { Word } from './types.js';

/**
 * Marks the part of a statically evaluated string that is not known (a
 * template substitution, an unresolved operand). A word that contains it is
 * unknown.
 */
export const UNKNOWN = '\u0000';

const SEPARATORS = new Set(['&&', '||', ';', '|', '&', '\n', '(', ')', '$(', '`']);

/**
 * Splits a shell command line into commands and their words. It is a
 * tokenizer, not a shell: enough to find which programs a string runs
 * (`sh -c "a && b | c"`), with quotes honoured and `$(…)` treated as a
 * command boundary.
 */
export function splitShell(line: string): Word[][] {
  const commands: Word[][] = [];
  let words: Word[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;

  const endWord = (): void => {
    if (inWord) words.push(current.includes(UNKNOWN) ? null : current);
    current = '';
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };

  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? '';
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
      else current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
      continue;
    }
    if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
      continue;
    }
    const two = line.slice(i, i + 2);
    if (SEPARATORS.has(two)) {
      endCommand();
      i++;
      continue;
    }
    if (SEPARATORS.has(ch)) {
      endCommand();
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      endWord();
      continue;
    }
    current += ch;
    inWord = true;
  }
  endCommand();
  return commands.flatMap(expandCommand);
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
const PREFIX_COMMANDS = new Set(['env', 'exec', 'time', 'nohup', 'sudo', 'command', 'npx', 'bunx', 'pnpx', 'xargs', 'timeout', 'stdbuf', 'nice']);

export { commandName as basename } from '../util/path.js';

/**
 * Normalizes one argv: drops `VAR=value` assignments and wrapper commands
 * (`env`, `npx`, `timeout 30`…) in front of the program, and expands
 * `sh -c "…"` into the commands of its script. `command -v x` is kept as
 * is: it is a lookup, not a run.
 */
export function expandCommand(argv: Word[]): Word[][] {
  let rest = argv;
  for (;;) {
    const head = rest[0];
    if (head === undefined || head === null) break;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(head)) {
      rest = rest.slice(1);
      continue;
    }
    const name = basename(head);
    if (name === 'command' && (rest[1] === '-v' || rest[1] === '-V')) break;
    if (PREFIX_COMMANDS.has(name) && rest.length > 1) {
      rest = rest.slice(1);
      // Options of the wrapper itself (`timeout 30`, `env -i`, `npx -y`).
      while (rest.length > 1 && typeof rest[0] === 'string' && (rest[0].startsWith('-') || /^\d+[smh]?$/.test(rest[0]))) {
        rest = rest.slice(1);
      }
      continue;
    }
    if (SHELLS.has(name)) {
      const dashC = rest.findIndex((w, i) => i > 0 && typeof w === 'string' && /^-[a-z]*c$/.test(w));
      if (dashC !== -1) {
        const script = rest[dashC + 1];
        if (script === undefined) return [rest];
        if (script === null) return [[null]];
        return splitShell(script);
      }
    }
    break;
  }
  return rest.length > 0 ? [rest] : [];
}

/** A GitHub Actions `${{ … }}` expression in a workflow value. */
export const EXPRESSION = /\$\{\{.*?\}\}/gs;

/**
 * The commands of a `run:` text as argv arrays. Leading `VAR=value`
 * assignments and wrappers (`env`, `npx`, `timeout 30`…) are dropped and
 * `bash -c "…"` is expanded, as `splitShell` does; `cd DIR` stays a command
 * of its own. A word holding a `${{ … }}` expression is '' (unless `expression`
 * replaces each expression by a marker of the caller's).
 */
export function commandsOf(run: string, expression: string = UNKNOWN): string[][] {
  const lines = run
    .replace(EXPRESSION, expression)
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map(withoutComment)
    // The `&` of `2>&1` duplicates a descriptor; it does not end a command.
    .map((line) => line.replace(/\d*>&[\d-]+/g, ' '));
  return splitShell(lines.join('\n'))
    .map((argv) => withoutRedirections(argv.map((word) => word ?? '')))
    .filter((argv) => argv.length > 0);
}

/** Drops a `#` comment: one that starts a word, outside quotes. */
function withoutComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote !== null) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"') i++;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '\\') i++;
    else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return line.slice(0, i);
  }
  return line;
}

/** `> out.log`, `2>/dev/null`, `< input` name files, not arguments. */
function withoutRedirections(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const redirect = /^\d*(>>?|<)(.*)$/.exec(argv[i] ?? '');
    if (redirect === null) out.push(argv[i] ?? '');
    else if (redirect[2] === '') i++;
  }
  return out;
}
