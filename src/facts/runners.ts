import { basename } from './shell.js';

// How a command starts a test runner, and the arguments of the run: shared by
// `init` (which infers the layout) and the CI analysis (which classifies a step).

export type RunnerName = 'vitest' | 'jest' | 'bun' | 'node' | 'mocha';

/** The package managers, which run a package's scripts. */
export const PACKAGE_RUNNERS: ReadonlySet<string> = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/** A test runner started by a package.json script, with the arguments that choose files. */
export interface RunnerInvocation {
  script: string;
  runner: RunnerName;
  /** Positional arguments: filters (vitest, bun), path regexes (jest), globs or paths (node, mocha). */
  positionals: string[];
  /** Values of the options that change the file set, by option name without dashes. */
  options: Map<string, string[]>;
  /** Boolean flags, without dashes. */
  flags: Set<string>;
}

/** Options whose value is the next word, per runner; any other option is taken as a flag. */
const VALUE_OPTIONS: Record<RunnerName, ReadonlySet<string>> = {
  vitest: new Set(['config', 'c', 'exclude', 'project', 'dir', 'root', 'r', 'reporter', 'environment', 'pool', 'testNamePattern', 't', 'shard', 'bail', 'maxWorkers', 'minWorkers', 'testTimeout', 'retry', 'mode', 'outputFile', 'workspace', 'changed', 'silent', 'sequence.seed', 'typecheck.include']),
  jest: new Set(['config', 'c', 'testPathIgnorePatterns', 'testPathPattern', 'testPathPatterns', 'selectProjects', 'testNamePattern', 't', 'maxWorkers', 'w', 'reporters', 'testTimeout', 'rootDir', 'roots', 'testMatch', 'testRegex', 'shard', 'outputFile', 'coverageDirectory', 'env', 'testEnvironment', 'seed', 'changedSince']),
  mocha: new Set(['config', 'require', 'r', 'extension', 'ignore', 'exclude', 'reporter', 'R', 'timeout', 't', 'grep', 'g', 'fgrep', 'f', 'spec', 'ui', 'u', 'slow', 's', 'jobs', 'j', 'file', 'node-option', 'n', 'package', 'reporter-option', 'O', 'retries']),
  bun: new Set(['timeout', 'preload', 'test-name-pattern', 't', 'rerun-each', 'coverage-reporter', 'coverage-dir', 'reporter', 'reporter-outfile', 'bail', 'path-ignore-patterns', 'max-concurrency']),
  node: new Set(['import', 'require', 'r', 'loader', 'experimental-loader', 'test-name-pattern', 'test-skip-pattern', 'test-reporter', 'test-reporter-destination', 'test-concurrency', 'test-timeout', 'test-shard', 'env-file', 'conditions', 'C', 'input-type', 'test-isolation', 'test-coverage-include', 'test-coverage-exclude', 'watch-path']),
};

/** The test runner an argv starts, with its arguments; null when it starts none. */
export function startRunner(words: string[]): { runner: RunnerName; args: string[] } | null {
  const program = words[0];
  if (program === undefined) return null;
  const name = basename(program);
  const rest = words.slice(1);
  if (name === 'vitest') return { runner: 'vitest', args: rest[0] === 'run' || rest[0] === 'watch' || rest[0] === 'dev' ? rest.slice(1) : rest };
  if (name === 'jest') return { runner: 'jest', args: rest };
  if (name === 'mocha' || name === '_mocha') return { runner: 'mocha', args: rest };
  if (name === 'bun' && rest[0] === 'test') return { runner: 'bun', args: rest.slice(1) };
  if ((name === 'node' || name === 'tsx') && rest.includes('--test')) return { runner: 'node', args: rest.filter((word) => word !== '--test') };
  return null;
}

export function parseArguments(script: string, runner: RunnerName, args: string[]): RunnerInvocation {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  const flags = new Set<string>();
  const add = (option: string, value: string): void => {
    const list = options.get(option);
    if (list) list.push(value);
    else options.set(option, [value]);
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (word === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      positionals.push(word);
      continue;
    }
    const body = word.replace(/^--?/, '');
    const equals = body.indexOf('=');
    if (equals !== -1) {
      add(body.slice(0, equals), body.slice(equals + 1));
      continue;
    }
    const next = args[i + 1];
    if (VALUE_OPTIONS[runner].has(body) && next !== undefined) {
      add(body, next);
      i++;
      // jest's list options take every following word that is not an option.
      while (runner === 'jest' && body === 'testPathIgnorePatterns' && args[i + 1] !== undefined && !(args[i + 1] ?? '').startsWith('-')) add(body, args[++i] ?? '');
      continue;
    }
    flags.add(body);
  }
  return { script, runner, positionals, options, flags };
}
