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
