import { basename, splitShell } from '../facts/shell.js';
import { Evaluator } from '../analysis/evaluate.js';
import type { RepoModel } from '../model/model.js';
import { compileGlobs } from '../util/glob.js';
import type { Lane } from './layout.js';
import { paidWords } from './layout.js';
import type { Package } from './workspace.js';

const SCRIPT_RUNNERS = new Set(['tsx', 'ts-node', 'node', 'bun', 'deno', 'vite-node', 'jiti']);
const SCRIPT_FILE = /\.[cm]?[jt]sx?$/;

/**
 * Paid lanes whose script runs a program of the repository's own
 * (`"test:llm": "tsx scripts/run-llm.ts"`) that chooses its suites from a
 * list of globs it imports or declares (`LLM_SUITES`): the lane runs the test
 * files those globs name. The program is read, never run.
 */
export function runnerScriptLanes(model: RepoModel, packages: readonly Package[], testFiles: readonly string[]): Lane[] {
  const lanes: Lane[] = [];
  const evaluator = new Evaluator(model);
  for (const pkg of packages) {
    for (const [script, text] of Object.entries(pkg.scan.scripts)) {
      const words = paidWords(script);
      if (!words.strong && !words.weak) continue;
      for (const argv of splitShell(text)) {
        const file = programFile(argv.map((word) => word ?? ''), pkg.dir);
        if (file === null || !model.fileSet.has(file)) continue;
        for (const list of globLists(model, evaluator, file)) {
          const matches = compileGlobs(list.globs);
          const files = new Set(testFiles.filter((test) => matches(test)));
          if (files.size === 0) continue;
          lanes.push({
            kind: 'paid',
            label: `${pkg.dir === '' ? '' : `${pkg.dir}: `}npm run ${script}`,
            why: `\`${script}\` is named as a paid suite; ${file} starts the suites of ${list.name} (${list.file})`,
            files,
            globs: list.globs,
            evaluable: true,
            weak: !words.strong,
            dir: pkg.dir,
            named: words.strong ? script : 'integration',
          });
        }
      }
    }
  }
  return lanes;
}

/** `tsx scripts/run.ts --flag` → `scripts/run.ts` (from the package directory), else null. */
function programFile(argv: readonly string[], dir: string): string | null {
  const [program, ...rest] = argv;
  if (program === undefined || !SCRIPT_RUNNERS.has(basename(program))) return null;
  const args = program === 'bun' && rest[0] === 'run' ? rest.slice(1) : rest;
  if (args.includes('--test')) return null;
  const file = args.find((arg) => !arg.startsWith('-'));
  if (file === undefined || !SCRIPT_FILE.test(file)) return null;
  const clean = file.replace(/^\.\//, '');
  return dir === '' ? clean : `${dir}/${clean}`;
}

/** The lists of globs the program imports by name or declares at its top level. */
function globLists(model: RepoModel, evaluator: Evaluator, file: string): { name: string; file: string; globs: string[] }[] {
  const facts = model.facts(file);
  if (!facts) return [];
  const out: { name: string; file: string; globs: string[] }[] = [];
  const consider = (target: string, name: string): void => {
    const result = evaluator.evaluateRef(target, { export: name });
    const value = result.value;
    if (value?.t !== 'arr' || value.items.length === 0) return;
    const globs: string[] = [];
    for (const item of value.items) {
      if (item.t !== 'str' || !/[*/]/.test(item.v)) return;
      globs.push(item.v);
    }
    out.push({ name, file: target, globs });
  };
  for (const fact of facts.imports) {
    if (fact.typeOnly) continue;
    const resolved = model.resolve(file, fact.specifier);
    if (resolved.kind !== 'file') continue;
    for (const binding of fact.bindings) if (!binding.typeOnly && binding.imported !== '*' && binding.imported !== 'default') consider(resolved.path, binding.imported);
  }
  for (const fact of facts.exports) if (fact.kind === 'local' && facts.constants.some((constant) => constant.name === fact.local && constant.kind === 'const')) consider(file, fact.name);
  return out;
}
