import type { PinnedTestFact, TestFact, TestModifier } from '../facts/types.js';
import type { RepoModel } from '../model/model.js';
import { gitIdentity } from '../repo/git.js';
import { UsageError } from '../errors.js';
import { closest } from '../util/closest.js';
import type { FrozenEntry, FrozenRunner } from './manifests.js';
import { pinnedReads } from './reads.js';
import { assertionSites, canBeRoster, invalidAssertName, namesRunner, runnerLanguage } from './runners.js';

// What `freeze add|refresh|thaw` and `lock` decide about a test or a file before the CLI writes the manifest.

/** Modifiers under which a test does not run as written: such a test cannot be pinned. */
const BLOCKING: ReadonlySet<TestModifier> = new Set(['skip', 'todo', 'fails', 'skipIf', 'runIf']);

/** Who pins when no --owner is given: the git identity of the repository (user.email, else user.name). */
export async function defaultOwner(root: string): Promise<string | null> {
  return gitIdentity(root);
}

export function testsOf(model: RepoModel, file: string): PinnedTestFact[] {
  if (!model.fileSet.has(file)) throw new UsageError(`${file} is not a file of this repository`);
  const facts = model.pinnedFacts(file);
  if (!facts) throw new UsageError(`${file} is not a script file tripwire can read`);
  const error = facts.parseErrors[0];
  if (error) throw new UsageError(`${file}:${error.loc.line}:${error.loc.column}: cannot parse: ${error.message}`);
  return facts.tests.filter((test) => test.kind === 'test');
}

export function theTest(tests: readonly PinnedTestFact[], file: string, name: string): PinnedTestFact {
  const matches = tests.filter((test) => test.name === name);
  const [test] = matches;
  if (!test) {
    const near = closest(name, tests.map((t) => t.name));
    throw new UsageError(`${file} declares no test '${name}'${near === undefined ? '' : ` (did you mean '${near}'?)`}`);
  }
  if (matches.length > 1) throw new UsageError(`${matches.length} tests in ${file} are named '${name}': give them distinct titles before freezing one`);
  return test;
}

export function whyNotFreezable(test: TestFact): string | null {
  const blocking = [...test.modifiers, ...test.inherited].filter((m) => BLOCKING.has(m));
  if (blocking.length > 0) return `it does not run as is (${[...new Set(blocking)].join(', ')}); freeze a test that runs`;
  if (test.timeout === null) return 'its timeout cannot be evaluated statically';
  if (test.retry === null) return 'its retry count cannot be evaluated statically';
  return null;
}

/** The pin of a test of `file`: its body, assertions, timeout and retries, and what it reads besides its body (reads.ts). */
export function pin(model: RepoModel, file: string, test: PinnedTestFact, reason: string, owner: string): FrozenEntry {
  const reads = pinnedReads(model, file, test);
  return {
    hash: test.hash,
    assertions: test.assertions,
    ...(typeof test.timeout === 'number' && { timeout: test.timeout }),
    ...(typeof test.retry === 'number' && { retry: test.retry }),
    ...(Object.keys(reads).length > 0 && { reads }),
    reason,
    owner,
    status: 'frozen',
  };
}

export function describePin(entry: FrozenEntry): string {
  const parts = [short(entry.hash), `${entry.assertions} assertion${entry.assertions === 1 ? '' : 's'}`];
  if (entry.timeout !== undefined) parts.push(`timeout ${entry.timeout} ms`);
  if (entry.retry !== undefined) parts.push(`retry ${entry.retry}`);
  const reads = Object.keys(entry.reads ?? {});
  if (reads.length > 0) parts.push(`reads ${reads.join(', ')}`);
  return parts.join(', ');
}

export function pinChanges(before: FrozenEntry, after: FrozenEntry): string[] {
  const changes: string[] = [];
  if (before.hash !== after.hash) changes.push(`hash ${short(before.hash)} → ${short(after.hash)}`);
  if (before.assertions !== after.assertions) changes.push(`assertions ${before.assertions} → ${after.assertions}`);
  if (before.timeout !== after.timeout) changes.push(`timeout ${before.timeout ?? 'none'} → ${after.timeout ?? 'none'}`);
  if (before.retry !== after.retry) changes.push(`retry ${before.retry ?? 'none'} → ${after.retry ?? 'none'}`);
  if (before.status !== after.status) changes.push(`status ${before.status} → ${after.status}`);
  const names = [...new Set([...Object.keys(before.reads ?? {}), ...Object.keys(after.reads ?? {})])].sort();
  const changedReads = names.filter((name) => before.reads?.[name] !== after.reads?.[name]);
  if (changedReads.length > 0) changes.push(`reads re-pinned: ${changedReads.join(', ')}`);
  return changes;
}

export function short(hash: string): string {
  return `${hash.slice(0, 'sha256:'.length + 12)}…`;
}

/**
 * The pin of a runner that is not JavaScript: its assertion call sites (calls
 * of `names`) and the rosters that name it, given or found among the files
 * that can list suites. A file that is not a shell or Python runner, or has
 * no assertion site, cannot be pinned (a UsageError says why).
 */
export function pinRunner(model: RepoModel, path: string, names: readonly string[], rosters: readonly string[] | undefined, reason: string, owner: string): FrozenRunner {
  if (!model.fileSet.has(path)) throw new UsageError(`${path} is not a file of this repository`);
  const bad = names.find(invalidAssertName);
  if (names.length === 0 || bad !== undefined) throw new UsageError(`--assert needs names of the calls that assert (e.g. check,expect_invalid,assert_*)${bad === undefined ? '' : `; '${bad}' is not one`}`);
  const text = model.text(path);
  const language = text === null ? null : runnerLanguage(path, text);
  if (text === null || language === null) throw new UsageError(`${path} is not a shell or Python runner (by its extension or #! line); freeze a JavaScript test file without --assert`);
  const sites = assertionSites(text, language, names);
  if (sites.length === 0) throw new UsageError(`${path} has no call of ${names.join(', ')}: nothing to pin (check the --assert names)`);
  let listed: string[];
  if (rosters === undefined) {
    listed = model.files.filter((file) => file !== path && canBeRoster(file) && namesRunner(model.text(file) ?? '', path));
  } else {
    listed = [];
    for (const roster of rosters) {
      if (!model.fileSet.has(roster)) throw new UsageError(`roster ${roster} is not a file of this repository`);
      if (!namesRunner(model.text(roster) ?? '', path)) throw new UsageError(`roster ${roster} does not name ${path}`);
      listed.push(roster);
    }
  }
  return { assert: [...names], assertions: sites.length, rosters: [...new Set(listed)].sort(), reason, owner, status: 'frozen' };
}

export function describeRunnerPin(runner: FrozenRunner): string {
  return `${runner.assertions} assertion site${runner.assertions === 1 ? '' : 's'} (${runner.assert.join(', ')}), rosters: ${runner.rosters.length === 0 ? 'none' : runner.rosters.join(', ')}`;
}
