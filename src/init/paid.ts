import { evaluate, selectRules } from '../engine/index.js';
import type { RepoModel } from '../model/model.js';
import { coverFiles } from './globs.js';
import { compileGlobs } from '../util/glob.js';
import type { Lane, WorkspaceLayout } from './layout.js';

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
  /** The lanes that turned out paid (a lane named only `integration` needs a file to show it). */
  paidLanes: Lane[];
  /** Files that reach a paid call but stay free, so that `tripwire check` reports them. */
  leftFree: { file: string; why: string }[];
}

/**
 * Which test files are paid, as the repository itself says: the lanes that
 * run them (a script named as a paid suite, a CI step that receives an API
 * key), a paid-looking directory or file name, a touchfile map that names
 * them. A file a free lane runs (a script or a keyless CI step) is free
 * unless it gates itself (it skips without its key or tier), whatever its
 * name or lane says: the free run runs it for real. Reachability of a paid
 * call (the `no-paid-calls-in-free-tests` rule, run with every test counted
 * as free) never classifies: such a test stays free, so that the check
 * reports it instead of the configuration blessing it.
 */
export function inferPaid(model: RepoModel, layout: WorkspaceLayout, mapNamed: ReadonlyMap<string, string>): PaidInference {
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
  const freeLanes = layout.lanes.filter((lane) => lane.kind === 'free' && lane.evaluable);
  // A lane named only `integration`/`int` is paid when one of its files shows it (reaches a paid call or skips itself), or when the same
  // script of another package does: one script name means one kind of suite across a workspace.
  const shows = (lane: Lane): boolean => [...lane.files].some((file) => reaching.has(file) || gates(model, file));
  const shown = new Set(layout.lanes.filter((lane) => lane.kind === 'paid' && lane.weak && shows(lane)).map((lane) => lane.named));
  const paidLanes = layout.lanes.filter((lane) => lane.kind === 'paid' && (!lane.weak || shown.has(lane.named) || shows(lane)));
  const runFree = new Map<string, string>();
  for (const file of testFiles) {
    const free = freeLanes.find((lane) => lane.files.has(file));
    if (free) runFree.set(file, free.label);
  }
  for (const file of testFiles) {
    const map = mapNamed.get(file);
    if (map !== undefined) {
      why.set(file, `named by the touchfile map ${map}`);
      continue;
    }
    const lane = paidLanes.find((candidate) => candidate.files.has(file));
    const free = runFree.get(file);
    const gated = gates(model, file);
    if (lane) {
      // A paid lane runs it: paid, unless a free lane runs it too and it does not skip itself there.
      if (free === undefined) why.set(file, `\`${lane.label}\` runs it (${lane.why})`);
      else if (gated) why.set(file, `\`${lane.label}\` runs it (${lane.why}); \`${free}\` runs it too, and it skips itself there`);
      continue;
    }
    // A paid-looking directory or name alone is a guess: paid when the file also skips itself, or, with no free lane running it, reaches a paid call.
    const name = paidName(file);
    if (name === null) continue;
    if (gated) why.set(file, `${name}, and it skips itself unless its condition is met`);
    else if (free === undefined && reaching.has(file)) why.set(file, `${name}, and it reaches a paid call`);
  }

  // A paid lane whose own glob is rooted in a folder of its package (`integration-tests/*.test.ts`) owns that folder: the test files below
  // it that no free lane runs (the suites its tests drive in fixture projects) belong to the same suite.
  for (const lane of paidLanes) {
    for (const root of lane.globs.map(staticDir)) {
      if (root === '' || root === lane.dir) continue;
      for (const file of testFiles) {
        if (why.has(file) || runFree.has(file) || !file.startsWith(`${root}/`)) continue;
        why.set(file, `under ${root}/, the folder of \`${lane.label}\` (${lane.why})`);
      }
    }
  }

  // Reaching a paid call never makes a test paid: a free test that reaches one stays free, and check reports it.
  const leftFree: PaidInference['leftFree'] = [];
  for (const [file, chain] of reaching) {
    if (why.has(file)) continue;
    const free = runFree.get(file);
    leftFree.push({ file, why: `${free === undefined ? 'it reaches' : `\`${free}\` runs it, yet it reaches`} a paid call (${chain})` });
  }

  const files = [...why.keys()].sort();
  const free = testFiles.filter((file) => !why.has(file));
  return { files, globs: files.length === 0 ? [] : paidGlobs(files, free, paidLanes), why, reaching, leftFree, paidLanes };
}

/** The folder a glob is rooted at, before its first wildcard segment: `integration-tests` for `integration-tests/x.test.ts` with a wildcard name; '' for a glob that starts with `**`. */
function staticDir(glob: string): string {
  const parts = glob.split('/').slice(0, -1);
  const wild = parts.findIndex((part) => /[*?[{!]/.test(part));
  return (wild === -1 ? parts : parts.slice(0, wild)).join('/');
}

/** A paid-looking directory or file name, or null. */
function paidName(file: string): string | null {
  const dirs = file.split('/').slice(0, -1);
  const index = dirs.findIndex((dir) => PAID_DIRECTORY.test(dir));
  if (index !== -1) return `in ${dirs.slice(0, index + 1).join('/')}/, a paid suite's directory`;
  if (PAID_NAME.test(file.slice(file.lastIndexOf('/') + 1))) return 'named as a paid test';
  return null;
}

/** The file skips itself on a condition read at run time: `describe.skipIf(...)`, `it.runIf(...)`, a comparison of an env var. */
function gates(model: RepoModel, file: string): boolean {
  const facts = model.facts(file);
  if (!facts) return false;
  if (facts.envCompares.length > 0) return true;
  return facts.tests.some((test) => [...test.modifiers, ...test.inherited].some((modifier) => modifier === 'skipIf' || modifier === 'runIf'));
}

/**
 * The paid files as globs: first the include globs of the paid lanes that run
 * them (the repository's own words, with at most a few free files negated),
 * then the fewest globs `coverFiles` finds for the rest.
 */
function paidGlobs(files: readonly string[], free: readonly string[], paidLanes: readonly Lane[]): string[] {
  const out: string[] = [];
  const left = new Set(files);
  const candidates = [...new Set(paidLanes.flatMap((lane) => lane.globs))];
  const scored = candidates
    .map((glob) => {
      const matches = compileGlobs([glob]);
      return { glob, paid: files.filter((file) => matches(file)), free: free.filter((file) => matches(file)) };
    })
    .filter((candidate) => candidate.paid.length >= 2 && candidate.free.length <= Math.min(3, Math.floor(candidate.paid.length / 3)))
    .sort((a, b) => b.paid.length - a.paid.length);
  for (const candidate of scored) {
    if (!candidate.paid.some((file) => left.has(file))) continue;
    out.push(candidate.glob, ...candidate.free.map((file) => `!${file}`));
    for (const file of candidate.paid) left.delete(file);
  }
  return [...out, ...(left.size > 0 ? coverFiles([...left], free) : [])];
}

/** `free test reaches a paid call through './x.js': a → b → openai. Import only…` → `a → b → openai`. */
function chainOf(message: string): string {
  const body = message.replace(/^free test /, '');
  const colon = body.indexOf(': ');
  const chain = colon === -1 ? body : body.slice(colon + 2);
  const end = /\.\s+[A-Z]/.exec(chain);
  return end ? chain.slice(0, end.index) : chain;
}
