import { evaluate, selectRules } from '../check.js';
import type { RepoModel } from '../model/model.js';
import { coverFiles } from './globs.js';
import type { TestLayout } from './runners.js';

/** Directory and file names that harnesses give their paid suites. */
const PAID_DIRECTORY = /^(?:evals?|e2e|live|paid)$/i;
const RULE = 'no-paid-calls-in-free-tests';
const PAID_NAME = /(?:^|[._-])(?:evals?|e2e|live|paid)[._-]/i;

export interface PaidInference {
  files: string[];
  globs: string[];
  /** Why each paid file is paid. */
  why: Map<string, string>;
  /** Test files that reach a paid call, with the chain (as the rule reports it). */
  reaching: Map<string, string>;
  /** Files that reach a paid call but stay free, so that `tripwire check` reports them. */
  leftFree: { file: string; why: string }[];
  /** Paid files that sit outside every paid-looking region: maybe a free test that should not reach the call. */
  doubtful: string[];
}

/**
 * Which test files are paid. The user's own structure decides first: files
 * `npm test` does not run, and files a touchfile map names. Reachability of a
 * paid call (the `no-paid-calls-in-free-tests` rule, run with every test
 * counted as free) decides the rest, unless `npm test` runs the file: then it
 * is a free test that reaches a paid call, and it stays free so that the
 * check reports it instead of the configuration blessing it.
 */
export function inferPaid(model: RepoModel, layout: TestLayout, mapNamed: ReadonlyMap<string, string>): PaidInference {
  const testFiles = layout.testFiles;
  const reaching = new Map<string, string>();
  // Through the engine, so that a `tripwire-disable` comment with a reason counts here as it does in check.
  const { findings } = evaluate(model, selectRules(model.config, [RULE], null), null);
  const tests = new Set(testFiles);
  for (const finding of findings) {
    // The engine also reports a reason-less suppression under the rule's id, in any file it read.
    if (finding.ruleId !== RULE || !tests.has(finding.file) || !finding.message.startsWith('free test ')) continue;
    if (!reaching.has(finding.file)) reaching.set(finding.file, chainOf(finding.message));
  }

  const why = new Map<string, string>();
  const freeRun = layout.freeRun;
  const separated = freeRun !== null && testFiles.some((file) => !freeRun.files.has(file));
  if (freeRun !== null && separated) {
    for (const file of testFiles) {
      if (freeRun.files.has(file)) continue;
      const runners = layout.scriptRuns.filter((run) => run.files.has(file)).map((run) => `\`npm run ${run.script}\``);
      why.set(file, `\`npm test\` does not run them${runners.length > 0 ? `; ${runners.slice(0, 2).join(', ')} ${runners.length === 1 ? 'does' : 'do'}` : ''}`);
    }
  }
  for (const [file, map] of mapNamed) if (!why.has(file)) why.set(file, `named by the touchfile map ${map}`);

  const leftFree: PaidInference['leftFree'] = [];
  for (const [file, chain] of reaching) {
    if (why.has(file)) continue;
    if (separated) {
      leftFree.push({ file, why: `\`npm test\` runs it, yet it reaches a paid call (${chain})` });
      continue;
    }
    why.set(file, `reaches a paid call: ${chain}`);
  }

  // A paid-looking directory that holds paid files is paid as a whole: its other files run under the same gate.
  const regions = new Set<string>();
  for (const file of why.keys()) {
    const dirs = file.split('/').slice(0, -1);
    const index = dirs.findIndex((dir) => PAID_DIRECTORY.test(dir));
    if (index !== -1) regions.add(dirs.slice(0, index + 1).join('/'));
  }
  if (!separated) {
    for (const file of testFiles) {
      if (why.has(file) || leftFree.some((free) => free.file === file)) continue;
      const region = [...regions].find((dir) => file.startsWith(`${dir}/`));
      if (region !== undefined) why.set(file, `in ${region}/ with the other paid tests`);
    }
  }

  const files = [...why.keys()].sort();
  const free = testFiles.filter((file) => !why.has(file));
  const doubtful = separated
    ? []
    : files.filter((file) => !mapNamed.has(file) && ![...regions].some((dir) => file.startsWith(`${dir}/`)) && !PAID_NAME.test(file.slice(file.lastIndexOf('/') + 1)));
  return { files, globs: files.length === 0 ? [] : coverFiles(files, free), why, reaching, leftFree, doubtful };
}

/** `free test reaches a paid call through './x.js': a → b → openai. Import only…` → `a → b → openai`. */
function chainOf(message: string): string {
  const body = message.replace(/^free test /, '');
  const colon = body.indexOf(': ');
  const chain = colon === -1 ? body : body.slice(colon + 2);
  const end = /\.\s+[A-Z]/.exec(chain);
  return end ? chain.slice(0, end.index) : chain;
}
