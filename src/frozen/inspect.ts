import type { FrozenEntry, FrozenManifest, LocksManifest, Manifest } from '../config/manifest.js';
import type { FileFacts, PinnedTestFact, TestFact, TestModifier } from '../facts/types.js';
import type { RepoModel } from '../model/model.js';
import { FILE_START } from '../model/positions.js';
import type { RuleFinding } from '../rule.js';
import type { Related } from '../types.js';
import {
  changeOfOldPath,
  frozenManifest,
  locksManifest,
  oldFrozenManifest,
  oldLocksManifest,
  pickTest,
  sha256OfFile,
  splitId,
  testId,
  testsNamed,
} from './manifests.js';
import { assertionSites, namesRunner, runnerLanguage } from './runners.js';
import { pinnedReads } from './reads.js';

export type ProblemKind =
  | 'removed'
  | 'moved'
  | 'skipped'
  | 'rewritten'
  | 'timeout'
  | 'retry'
  | 'only'
  | 'lock-changed'
  | 'lock-deleted'
  | 'runner-deleted'
  | 'runner-weakened'
  | 'runner-unlisted'
  | 'self-approval';

/** The message id of each kind of problem; the kinds stay the states `freeze list` prints. */
export const MESSAGE_IDS = {
  removed: 'frozenTestRemoved',
  moved: 'frozenTestMoved',
  skipped: 'frozenTestSkipped',
  rewritten: 'frozenTestRewritten',
  timeout: 'timeoutRaised',
  retry: 'retriesRaised',
  only: 'focusedSibling',
  'lock-changed': 'lockedFileChanged',
  'lock-deleted': 'lockedFileDeleted',
  'runner-deleted': 'frozenRunnerDeleted',
  'runner-weakened': 'runnerAssertionsRemoved',
  'runner-unlisted': 'runnerDroppedFromRoster',
  'self-approval': 'selfApproval',
} as const satisfies Record<ProblemKind, string>;

export const FROZEN_MESSAGES = {
  frozenTestRemoved: { description: 'A frozen test no longer exists under its id (with a hint when a test with the same body exists elsewhere).' },
  frozenTestMoved: { description: 'A frozen test moved with its file (git rename) and the manifest still names the old id.' },
  frozenTestSkipped: { description: 'A frozen test is skipped, todo, expected to fail or guarded by skipIf/runIf, itself or through its suite.' },
  frozenTestRewritten: { description: 'A frozen test body no longer matches its pinned hash, or it has fewer assertions.' },
  timeoutRaised: { description: 'A frozen test has a longer timeout than pinned, or one tripwire cannot evaluate statically.' },
  retriesRaised: { description: 'A frozen test retries more often than pinned, or a retry count tripwire cannot evaluate statically.' },
  focusedSibling: { description: 'An `.only` in the file of a frozen test skips the frozen test.' },
  lockedFileChanged: { description: 'A locked fixture or oracle file no longer has its recorded SHA-256.' },
  lockedFileDeleted: { description: 'A locked fixture or oracle file was deleted.' },
  frozenRunnerDeleted: { description: 'A frozen runner that is not JavaScript (a shell or Python suite) was deleted.' },
  runnerAssertionsRemoved: { description: 'A frozen runner has fewer assertion call sites than pinned.' },
  runnerDroppedFromRoster: { description: 'A roster that named a frozen runner when it was pinned (a runner script, a CI workflow) no longer names it, or was deleted.' },
  selfApproval: { description: 'With --base: the diff changes a frozen test or locked file and its pin together.' },
} as const satisfies Record<(typeof MESSAGE_IDS)[ProblemKind], { description: string }>;

export interface FrozenProblem extends Omit<RuleFinding, 'messageId'> {
  kind: ProblemKind;
  /** The frozen test ids or locked paths it concerns. */
  subjects: string[];
}

/** What keeps a frozen test from running as pinned, in the words of a finding. */
const WEAKENING: Partial<Record<TestModifier, string>> = {
  skip: 'skipped',
  todo: 'marked todo',
  fails: 'expected to fail (.fails)',
  skipIf: 'guarded by skipIf',
  runIf: 'guarded by runIf',
};

/** Every problem with the frozen tests and the locked files; with `--base`, also what the diff approved itself. */
export function inspect(model: RepoModel): FrozenProblem[] {
  const frozen = frozenManifest(model);
  const locks = locksManifest(model);
  return [...inspectFrozen(model, frozen), ...inspectRunners(model, frozen), ...inspectLocks(model, locks), ...(model.diff ? selfApproval(model, frozen, locks) : [])];
}

// ---- frozen runners (shell, Python)

export function inspectRunners(model: RepoModel, manifest: Manifest<FrozenManifest>): FrozenProblem[] {
  const problems: FrozenProblem[] = [];
  for (const [path, runner] of Object.entries(manifest.data.runners ?? {})) {
    const at = manifest.locate(['runners', path]);
    const pinned = { file: manifest.path, ...lineColumn(at), message: `pinned: ${runner.assertions} assertion site${runner.assertions === 1 ? '' : 's'} (${runner.assert.join(', ')}), named by ${runner.rosters.length === 0 ? 'no roster' : runner.rosters.join(', ')}` };
    const text = model.fileSet.has(path) ? model.text(path) : null;
    if (text === null) {
      problems.push({
        kind: 'runner-deleted',
        subjects: [path],
        file: manifest.path,
        loc: at,
        message: `frozen runner ${path} no longer exists: its ${runner.assertions} assertion sites no longer run. Restore it; a frozen suite is removed only by its owner (${runner.owner}), in a change of its own.`,
      });
      continue;
    }
    const language = runnerLanguage(path, text);
    const sites = language === null ? [] : assertionSites(text, language, runner.assert);
    if (sites.length < runner.assertions) {
      problems.push({
        kind: 'runner-weakened',
        subjects: [path],
        file: path,
        loc: FILE_START,
        message: `frozen runner ${path} has ${sites.length} assertion site${sites.length === 1 ? '' : 's'} (calls of ${runner.assert.join(', ')}), ${runner.assertions} when it was pinned: checks were removed. Restore them; the owner (${runner.owner}) re-pins an intended change with 'tripwire freeze refresh ${path}'.`,
        related: [pinned],
      });
    }
    for (const roster of runner.rosters) {
      const rosterText = model.fileSet.has(roster) ? model.text(roster) : null;
      if (rosterText !== null && namesRunner(rosterText, path)) continue;
      problems.push({
        kind: 'runner-unlisted',
        subjects: [path],
        file: rosterText === null ? manifest.path : roster,
        loc: rosterText === null ? at : FILE_START,
        message:
          rosterText === null
            ? `${roster}, which listed the frozen runner ${path} when it was pinned, was deleted: nothing may run the suite any more. Restore the roster or list ${path} in the one that replaced it.`
            : `${roster} no longer names the frozen runner ${path}, which it listed when it was pinned: the suite no longer runs from there. List it again.`,
        related: [pinned],
      });
    }
  }
  return problems;
}

// ---- frozen tests

interface Located {
  id: string;
  entry: FrozenEntry;
  file: string;
  test: PinnedTestFact;
}

export function inspectFrozen(model: RepoModel, manifest: Manifest<FrozenManifest>): FrozenProblem[] {
  const problems: FrozenProblem[] = [];
  const located: Located[] = [];
  for (const [id, entry] of Object.entries(manifest.data.tests)) {
    const found = locate(model, manifest, id, entry, problems);
    if (found) located.push(found);
  }
  for (const item of located) problems.push(...weakenings(model, manifest, item));
  problems.push(...focusedSiblings(model, located));
  return problems;
}

function locate(model: RepoModel, manifest: Manifest<FrozenManifest>, id: string, entry: FrozenEntry, problems: FrozenProblem[]): Located | null {
  const { file, name } = splitId(id);
  const test = pickTest(testsNamed(model, file, name), entry.hash);
  if (test) return { id, entry, file, test };
  const at = manifest.locate(['tests', id]);

  // With --base, git's rename detection follows a test whose file moved, even when its body changed too.
  const change = changeOfOldPath(model, file);
  if (change?.status === 'renamed') {
    const moved = pickTest(testsNamed(model, change.path, name), entry.hash);
    if (moved) {
      const newId = testId(change.path, name);
      problems.push({
        kind: 'moved',
        subjects: [id],
        file: manifest.path,
        loc: at,
        message: `frozen test '${id}' moved with its file (git rename ${file} → ${change.path}) and the manifest still names the old id: ask its owner (${entry.owner}) to rename the key to '${newId}'`,
        related: [{ file: change.path, line: moved.loc.line, column: moved.loc.column, message: newId }],
      });
      return { id, entry, file: change.path, test: moved };
    }
  }

  const twin = sameBody(model, manifest.data, entry.hash);
  const hint = twin ? `: did you mean '${twin.id}'? A test with the same body is declared there` : '';
  problems.push({
    kind: 'removed',
    subjects: [id],
    file: manifest.path,
    loc: at,
    message: `frozen test '${id}' no longer exists${hint}. Restore it; only its owner (${entry.owner}) unfreezes or renames it, in a change of its own.`,
    ...(twin && { related: [{ file: twin.file, line: twin.test.loc.line, column: twin.test.loc.column, message: twin.id }] }),
  });
  return null;
}

/** A test whose body hashes the same under another id, not itself frozen: the frozen test was renamed or moved. */
function sameBody(model: RepoModel, manifest: FrozenManifest, hash: string): { id: string; file: string; test: PinnedTestFact } | null {
  const files = [...new Set([...model.testFiles(), ...Object.keys(manifest.tests).map((id) => splitId(id).file)])].filter((file) => model.fileSet.has(file)).sort();
  for (const file of files) {
    for (const test of model.pinnedFacts(file)?.tests ?? []) {
      const id = testId(file, test.name);
      if (test.kind === 'test' && test.hash === hash && !(id in manifest.tests)) return { id, file, test };
    }
  }
  return null;
}

function weakenings(model: RepoModel, manifest: Manifest<FrozenManifest>, { id, entry, file, test }: Located): FrozenProblem[] {
  const problems: FrozenProblem[] = [];
  const pinned: Related[] = [{ file: manifest.path, ...lineColumn(manifest.locate(['tests', id])), message: `pinned by ${entry.owner}: ${entry.reason}` }];
  const at = { subjects: [id], file, loc: test.loc, related: pinned };

  const own = test.modifiers.filter((m) => WEAKENING[m] !== undefined);
  const inherited = test.inherited.filter((m) => WEAKENING[m] !== undefined && !own.includes(m));
  if (own.length > 0 || inherited.length > 0) {
    const parts = own.map((m) => WEAKENING[m]);
    for (const modifier of inherited) {
      const parent = enclosing(model.pinnedFacts(file), test, modifier);
      parts.push(`${WEAKENING[modifier]} through ${parent ? `its ${parent.kind === 'suite' ? 'suite' : 'parent test'} '${parent.name}'` : 'a file-level setting'}`);
    }
    problems.push({ kind: 'skipped', ...at, message: `frozen test '${test.name}' is ${parts.join(' and ')}: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (${entry.owner}) unfreezes it.` });
  }
  // A thawed entry was opened by its owner for an intended change; it is re-pinned with `freeze refresh`.
  if (entry.status === 'thawed') return problems;

  const fewer = test.assertions < entry.assertions ? ` and it has ${test.assertions} assertion${test.assertions === 1 ? '' : 's'}, down from ${entry.assertions}` : '';
  const changedReads = entry.reads === undefined ? [] : changedDependencies(entry.reads, pinnedReads(model, file, test));
  if (test.hash === entry.hash && fewer === '' && changedReads.length > 0) {
    problems.push({
      kind: 'rewritten',
      ...at,
      message: `frozen test '${test.name}' reads ${changedReads.join(', ')}, which changed since it was pinned: what the test checks changed with ${changedReads.length === 1 ? 'it' : 'them'}. Restore ${changedReads.length === 1 ? 'it' : 'them'}; only the test's owner (${entry.owner}) re-pins it, in a change of its own (tripwire freeze refresh).`,
    });
  }
  if (test.hash !== entry.hash || fewer !== '') {
    problems.push({
      kind: 'rewritten',
      ...at,
      message: `frozen test '${test.name}' was rewritten: its body no longer matches the pinned hash${fewer}. Restore it; only its owner (${entry.owner}) re-pins it, in a change of its own (tripwire freeze refresh).`,
    });
  }
  const timeout = raised('timeout', test.timeout, entry.timeout);
  if (timeout) problems.push({ kind: 'timeout', ...at, message: `frozen test '${test.name}' ${timeout}` });
  const retry = raised('retry', test.retry, entry.retry);
  if (retry) problems.push({ kind: 'retry', ...at, message: `frozen test '${test.name}' ${retry}` });
  return problems;
}

/** The pinned dependencies whose hash changed or that are gone, by the name they were pinned under. */
function changedDependencies(pinned: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): string[] {
  return Object.keys(pinned).filter((name) => now[name] !== pinned[name]);
}

function raised(what: 'timeout' | 'retry', current: number | null | undefined, pinned: number | undefined): string | null {
  if (current === undefined) return null;
  if (current === null) return `sets a ${what} that tripwire cannot evaluate statically: use a number literal or a const, so that the pinned ${what} can be compared`;
  if (what === 'timeout') {
    if (pinned === undefined) return `now has a timeout of ${current} ms, and none was pinned: a longer timeout hides a slower or hanging test`;
    return current > pinned ? `has a timeout of ${current} ms, raised from the pinned ${pinned} ms: a longer timeout hides a slower or hanging test` : null;
  }
  if (current <= (pinned ?? 0)) return null;
  return pinned === undefined ? `now retries ${current} time${current === 1 ? '' : 's'}, and it was pinned without retries: a retry turns a flaky failure green` : `retries ${current} times, raised from the pinned ${pinned}: a retry turns a flaky failure green`;
}

function enclosing(facts: FileFacts | null, test: TestFact, modifier: TestModifier): TestFact | undefined {
  const parents = (facts?.tests ?? []).filter((p) => p !== test && test.name.startsWith(`${p.name} > `) && contains(p, test) && (p.modifiers.includes(modifier) || p.inherited.includes(modifier)));
  // The outermost one that has it itself: that is where the modifier was written.
  return parents.find((p) => p.modifiers.includes(modifier)) ?? parents[0];
}

function contains(outer: TestFact, inner: TestFact): boolean {
  const starts = outer.loc.line < inner.loc.line || (outer.loc.line === inner.loc.line && outer.loc.column <= inner.loc.column);
  const ends = outer.loc.endLine > inner.loc.endLine || (outer.loc.endLine === inner.loc.endLine && outer.loc.endColumn >= inner.loc.endColumn);
  return starts && ends;
}

/** An `.only` anywhere in a file that holds a frozen test runs only itself: the frozen test is skipped without a word. */
function focusedSiblings(model: RepoModel, located: readonly Located[]): FrozenProblem[] {
  const problems: FrozenProblem[] = [];
  const byFile = new Map<string, Located[]>();
  for (const item of located) byFile.set(item.file, [...(byFile.get(item.file) ?? []), item]);
  for (const [file, items] of byFile) {
    for (const focused of model.facts(file)?.tests ?? []) {
      if (!focused.modifiers.includes('only')) continue;
      // A test that is focused itself, or inside a focused suite, still runs.
      const silenced = items.filter(({ test }) => !test.modifiers.includes('only') && !test.inherited.includes('only') && !(focused.kind === 'suite' && contains(focused, test)));
      if (silenced.length === 0) continue;
      const names = silenced.map(({ test }) => `'${test.name}'`).join(', ');
      problems.push({
        kind: 'only',
        subjects: silenced.map(({ id }) => id),
        file,
        loc: focused.loc,
        message: `.only on '${focused.name}' skips the frozen test${silenced.length === 1 ? '' : 's'} ${names} of this file: remove the .only`,
        related: silenced.map(({ test }) => ({ file, line: test.loc.line, column: test.loc.column, message: test.name })),
      });
    }
  }
  return problems;
}

// ---- locked files

export function inspectLocks(model: RepoModel, manifest: Manifest<LocksManifest>): FrozenProblem[] {
  const problems: FrozenProblem[] = [];
  for (const [path, pinned] of Object.entries(manifest.data.files)) {
    const actual = sha256OfFile(model, path);
    const entry = manifest.locate(['files', path]);
    if (actual === null) {
      const change = changeOfOldPath(model, path);
      const moved = change?.status === 'renamed' ? ` (git rename → ${change.path})` : '';
      problems.push({
        kind: 'lock-deleted',
        subjects: [path],
        file: manifest.path,
        loc: entry,
        message: `locked file ${path} was deleted${moved}: a test's oracle or fixture is gone. Restore it; only a reviewed change re-locks a fixture (tripwire lock).`,
      });
    } else if (actual !== pinned) {
      problems.push({
        kind: 'lock-changed',
        subjects: [path],
        file: path,
        loc: FILE_START,
        message: `locked file ${path} changed: its SHA-256 no longer matches ${manifest.path}. Restore its bytes; an oracle's input changes only in a reviewed change of its own (tripwire lock).`,
        related: [{ file: manifest.path, ...lineColumn(entry), message: pinned }],
      });
    }
  }
  return problems;
}

// ---- --base: a diff that changes what is pinned and the pin together

function selfApproval(model: RepoModel, frozen: Manifest<FrozenManifest>, locks: Manifest<LocksManifest>): FrozenProblem[] {
  const problems: FrozenProblem[] = [];
  const manifestPath = frozen.path;
  for (const [id, before] of Object.entries(oldFrozenManifest(model).tests)) {
    // The owner thawed it before this diff: editing and re-pinning it here is the intended workflow.
    if (before.status === 'thawed') continue;
    const { file, name } = splitId(id);
    const change = changeOfOldPath(model, file);
    if (!change) continue;
    const oldTest = pickTest((model.oldPinnedFacts(file)?.tests ?? []).filter((t) => t.kind === 'test' && t.name === name), before.hash);
    if (!oldTest) continue;
    const newFile = change.status === 'deleted' ? null : change.path;
    const newId = newFile === null ? id : testId(newFile, name);
    const newTest = newFile === null ? undefined : pickTest(testsNamed(model, newFile, name), before.hash);
    const base = before.reads === undefined || !newTest || newFile === null ? null : model.atBase();
    const readsChange = base === null || !newTest || newFile === null ? null : describeReadsChange(pinnedReads(base, file, oldTest), pinnedReads(model, newFile, newTest));
    const testChange = [describeTestChange(oldTest, newTest), readsChange].filter((part) => part !== null).join(', ') || null;
    if (testChange === null) continue;
    const key = newId in frozen.data.tests ? newId : id;
    const after = frozen.data.tests[key];
    const pinChange = describePinChange(before, after);
    if (pinChange === null) continue;
    problems.push({
      kind: 'self-approval',
      subjects: [id],
      ...(after ? { file: manifestPath, loc: frozen.locate(['tests', key]) } : newTest && newFile ? { file: newFile, loc: newTest.loc } : { file: manifestPath, loc: FILE_START }),
      message: `this diff changes the frozen test '${newId}' (${testChange}) and also its pin in ${manifestPath} (${pinChange}): a change cannot approve itself. Revert the manifest edit; only the owner (${before.owner}) re-pins, thaws or unfreezes a test, in a change of its own.`,
    });
  }
  const oldLocks = oldLocksManifest(model).files;
  for (const [path, before] of Object.entries(oldLocks)) {
    const change = changeOfOldPath(model, path);
    if (!change || change.status === 'added') continue;
    const newPath = change.status === 'renamed' ? change.path : path;
    const after = locks.data.files[newPath] ?? locks.data.files[path];
    if (after === before) continue;
    const what = change.status === 'deleted' ? `deletes ${path}` : change.status === 'renamed' ? `moves ${path} to ${change.path}` : `changes ${path}`;
    problems.push({
      kind: 'self-approval',
      subjects: [path],
      file: locks.path,
      loc: after === undefined ? FILE_START : locks.locate(['files', newPath in locks.data.files ? newPath : path]),
      message: `this diff ${what} and also ${after === undefined ? 'removes its lock from' : 're-locks it in'} ${locks.path}: a change cannot approve itself. Revert the lock edit; a fixture is re-locked in a reviewed change of its own.`,
    });
  }
  return problems;
}

function describeTestChange(before: PinnedTestFact, after: PinnedTestFact | undefined): string | null {
  if (!after) return 'removed';
  const changes: string[] = [];
  if (before.hash !== after.hash) changes.push('body');
  if (before.assertions !== after.assertions) changes.push(`assertions ${before.assertions} → ${after.assertions}`);
  const modifiers = (t: TestFact) => [...new Set([...t.modifiers, ...t.inherited])].sort().join(',');
  if (modifiers(before) !== modifiers(after)) changes.push(`modifiers [${modifiers(before)}] → [${modifiers(after)}]`);
  if (before.timeout !== after.timeout) changes.push(`timeout ${before.timeout ?? 'none'} → ${after.timeout ?? 'none'}`);
  if (before.retry !== after.retry) changes.push(`retry ${before.retry ?? 'none'} → ${after.retry ?? 'none'}`);
  return changes.length === 0 ? null : changes.join(', ');
}

/** What changed in the declarations a test reads, by name; null when nothing did. */
function describeReadsChange(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): string | null {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changed = names.filter((name) => before[name] !== after[name]);
  return changed.length === 0 ? null : `reads ${changed.join(', ')} changed`;
}

function describePinChange(before: FrozenEntry, after: FrozenEntry | undefined): string | null {
  if (!after) return 'entry removed';
  const changes: string[] = [];
  // An entry pinned before reads were recorded gains them at its first re-pin: that is no change of what it pins.
  const reads = before.reads === undefined ? null : describeReadsChange(before.reads, after.reads ?? {});
  if (reads !== null) changes.push(reads.replace(/ changed$/, ' re-pinned'));
  if (before.hash !== after.hash) changes.push('hash re-pinned');
  if (before.assertions !== after.assertions) changes.push(`assertions ${before.assertions} → ${after.assertions}`);
  if (before.timeout !== after.timeout) changes.push(`timeout ${before.timeout ?? 'none'} → ${after.timeout ?? 'none'}`);
  if (before.retry !== after.retry) changes.push(`retry ${before.retry ?? 'none'} → ${after.retry ?? 'none'}`);
  if (before.status !== after.status) changes.push(`status ${before.status} → ${after.status}`);
  return changes.length === 0 ? null : changes.join(', ');
}

function lineColumn(loc: { line: number; column: number }): { line: number; column: number } {
  return { line: loc.line, column: loc.column };
}
