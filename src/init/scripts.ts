import { basename, splitShell } from '../facts/shell.js';
import { PACKAGE_RUNNERS, parseArguments, startRunner, type RunnerInvocation } from '../facts/runners.js';

export { PACKAGE_RUNNERS, parseArguments, startRunner, type RunnerInvocation, type RunnerName } from '../facts/runners.js';

/**
 * The test-runner invocations of a script, following `npm run x` / `pnpm x` /
 * `yarn x` / `npm test` into the scripts they name (once each).
 */
export function runnerInvocations(scripts: Readonly<Record<string, string>>, name: string, seen: Set<string> = new Set()): RunnerInvocation[] {
  const text = scripts[name];
  if (text === undefined || seen.has(name)) return [];
  seen.add(name);
  const out: RunnerInvocation[] = [];
  for (const argv of splitShell(text)) {
    const words = argv.map((word) => word ?? '');
    const nested = scriptReference(words, scripts);
    if (nested !== null) {
      out.push(...runnerInvocations(scripts, nested, seen).map((invocation) => ({ ...invocation, script: name })));
      continue;
    }
    const started = startRunner(words) ?? startRunner(withoutPackageRunner(words));
    if (started) out.push(parseArguments(name, started.runner, started.args));
  }
  return out;
}

/** `npm run evals` → `evals`; `npm test` / `npm t` → `test`; `pnpm evals` / `yarn evals` → `evals` when that script exists. */
function scriptReference(words: string[], scripts: Readonly<Record<string, string>>): string | null {
  const [program, first, second] = words;
  if (program === undefined || !PACKAGE_RUNNERS.has(basename(program)) || first === undefined) return null;
  if (first === 'run' || first === 'run-script') return second ?? null;
  if (first === 'test' || first === 't') return program === 'bun' ? null : 'test';
  if (basename(program) !== 'npm' && first in scripts) return first;
  return null;
}

/** `pnpm exec vitest`, `yarn jest`, `bunx mocha` → the command they run. */
function withoutPackageRunner(words: string[]): string[] {
  const [program, first] = words;
  if (program === undefined || !PACKAGE_RUNNERS.has(basename(program))) return [];
  return first === 'exec' || first === 'dlx' || first === 'x' ? words.slice(2) : words.slice(1);
}
