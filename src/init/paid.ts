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
}

/**
 * Which test files are paid, as the repository itself says: files `npm test`
 * does not run, files a touchfile map names, and, without a separate free
 * run, files in a paid-looking directory or with a paid-looking name.
 * Reachability of a paid call (the `no-paid-calls-in-free-tests` rule, run
 * with every test counted as free) never classifies: such a test stays free,
 * so that the check reports it instead of the configuration blessing it.
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

  // Without a separate free run, the repository's names draw the line: a paid-looking directory or file name.
  if (!separated) {
    for (const file of testFiles) {
      if (why.has(file)) continue;
      const dirs = file.split('/').slice(0, -1);
      const index = dirs.findIndex((dir) => PAID_DIRECTORY.test(dir));
      if (index !== -1) why.set(file, `in ${dirs.slice(0, index + 1).join('/')}/, a paid suite's directory`);
      else if (PAID_NAME.test(file.slice(file.lastIndexOf('/') + 1))) why.set(file, 'named as a paid test');
    }
  }
  // Reaching a paid call never makes a test paid: a free test that reaches one stays free, and check reports it.
  const leftFree: PaidInference['leftFree'] = [];
  for (const [file, chain] of reaching) {
    if (why.has(file)) continue;
    leftFree.push({ file, why: `${separated ? '`npm test` runs it, yet it reaches' : 'it reaches'} a paid call (${chain})` });
  }

  const files = [...why.keys()].sort();
  const free = testFiles.filter((file) => !why.has(file));
  return { files, globs: files.length === 0 ? [] : coverFiles(files, free), why, reaching, leftFree };
}

/** `free test reaches a paid call through './x.js': a → b → openai. Import only…` → `a → b → openai`. */
function chainOf(message: string): string {
  const body = message.replace(/^free test /, '');
  const colon = body.indexOf(': ');
  const chain = colon === -1 ? body : body.slice(colon + 2);
  const end = /\.\s+[A-Z]/.exec(chain);
  return end ? chain.slice(0, end.index) : chain;
}
