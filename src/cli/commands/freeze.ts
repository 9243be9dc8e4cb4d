import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { inspectFrozen, inspectLocks, inspectRunners, MESSAGE_IDS, type FrozenProblem } from '../../frozen/inspect.js';
import { frozenManifest, locksManifest, sha256OfFile, splitId, testId, writeFrozen, writeLocks, type FrozenEntry, type FrozenManifest } from '../../frozen/manifests.js';
import { defaultOwner, describePin, describeRunnerPin, pin, pinChanges, pinRunner, short, testsOf, theTest, whyNotFreezable } from '../../frozen/pins.js';
import { parseAssertNames } from '../../frozen/runners.js';
import { buildModel, UsageError, type RepoModel } from '../../engine/index.js';
import { toPosix } from '../../util/path.js';
import { warnCacheRefused } from '../cache-warning.js';
import { report } from '../../report/index.js';
import type { Finding } from '../../types.js';
import { closest } from '../../util/closest.js';
import { VERSION } from '../../version.js';
import { resolveCwd } from '../cwd.js';
import type { Io } from '../io.js';
import { rules } from '../../../rules/index.js';

/** `freeze verify` is this rule, standalone; its findings carry its id and docs. */
const FROZEN_RULE = (() => {
  const rule = rules.find((candidate) => candidate.id === 'no-weakened-frozen-tests');
  if (!rule) throw new Error('the rule no-weakened-frozen-tests is not registered');
  return rule;
})();

/** Runs `tripwire check` with these arguments: `freeze verify` is the rule, standalone. */
export type CheckRunner = (argv: string[]) => Promise<number>;

const COMMON = {
  cwd: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `tripwire freeze add|list|verify|refresh|thaw`: the only commands, with `lock` and `init`, that write into the repository. */
export async function freezeCommand(argv: string[], io: Io, help: string, runCheck: CheckRunner): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    io.stdout(help);
    return sub === undefined ? 2 : 0;
  }
  if (sub === 'verify') {
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(help);
      return 0;
    }
    return runCheck(['--rule', FROZEN_RULE.id, ...rest]);
  }
  if (sub === 'add') return freezeAdd(rest, io, help);
  if (sub === 'list') return freezeList(rest, io, help);
  if (sub === 'refresh' || sub === 'thaw') return freezeUpdate(sub, rest, io, help);
  throw new UsageError(`unknown freeze command '${sub}' (known: add, list, verify, refresh, thaw)`);
}

async function openModel(values: { cwd?: string; config?: string }, io: Io): Promise<{ model: RepoModel; save: () => void }> {
  const { model, cacheRefused } = await buildModel({ cwd: resolveCwd(io.cwd, values.cwd), ...(values.config !== undefined && { configFile: values.config }) });
  warnCacheRefused(io, cacheRefused);
  return { model, save: () => model.saveCache() };
}

// ---- freeze add

async function freezeAdd(argv: string[], io: Io, help: string): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON, reason: { type: 'string' }, owner: { type: 'string' }, assert: { type: 'string' }, roster: { type: 'string', multiple: true } },
  });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  const target = positionals[0];
  if (target === undefined || positionals.length > 1) throw new UsageError('freeze add needs one <file> or <file>::<test id>');
  if (values.roster !== undefined && values.assert === undefined) throw new UsageError('--roster is for a runner frozen with --assert');
  const reason = requireReason(values.reason, 'add');
  const { model, save } = await openModel(values, io);
  const owner = values.owner ?? (await defaultOwner(model.root));
  if (owner === null) throw new UsageError('freeze add needs --owner (no git user.email or user.name is configured)');
  if (values.assert !== undefined) {
    const path = repoPath(model, io, target);
    const manifest = frozenManifest(model);
    if (path in (manifest.data.runners ?? {})) throw new UsageError(`${path} is already frozen; to re-pin it after an intended change, run 'tripwire freeze refresh ${path}'`);
    const runner = pinRunner(model, path, parseAssertNames(values.assert), values.roster?.map((roster) => repoPath(model, io, roster)), reason, owner);
    save();
    writeFrozen(model.root, manifest.path, { ...manifest.data, runners: { ...manifest.data.runners, [path]: runner } });
    io.stdout(`froze runner ${path} (${describeRunnerPin(runner)})\nwrote ${manifest.path}\n`);
    return 0;
  }

  const at = target.indexOf('::');
  const file = repoPath(model, io, at === -1 ? target : target.slice(0, at));
  const name = at === -1 ? null : target.slice(at + 2);
  const tests = testsOf(model, file);
  const manifest = frozenManifest(model);
  const next: FrozenManifest = { ...manifest.data, tests: { ...manifest.data.tests } };
  const lines: string[] = [];
  let added = 0;

  if (name !== null) {
    const test = theTest(tests, file, name);
    const id = testId(file, name);
    if (id in next.tests) throw new UsageError(`'${id}' is already frozen; to re-pin it after an intended change, run 'tripwire freeze refresh'`);
    const refusal = whyNotFreezable(test);
    if (refusal !== null) throw new UsageError(`cannot freeze '${id}': ${refusal}`);
    next.tests[id] = pin(model, file, test, reason, owner);
    lines.push(`froze ${id} (${describePin(next.tests[id])})`);
    added++;
  } else {
    const counts = new Map<string, number>();
    for (const test of tests) counts.set(test.name, (counts.get(test.name) ?? 0) + 1);
    for (const test of tests) {
      const id = testId(file, test.name);
      const refusal = (counts.get(test.name) ?? 0) > 1 ? `${counts.get(test.name)} tests share this id; give them distinct titles` : whyNotFreezable(test);
      if (id in next.tests) lines.push(`already frozen ${id}`);
      else if (refusal !== null) lines.push(`not frozen ${id}: ${refusal}`);
      else {
        const entry = pin(model, file, test, reason, owner);
        next.tests[id] = entry;
        lines.push(`froze ${id} (${describePin(entry)})`);
        added++;
      }
    }
    if (tests.length === 0) lines.push(`${file} declares no test`);
  }
  save();
  if (added > 0) {
    writeFrozen(model.root, manifest.path, next);
    lines.push(`wrote ${manifest.path}: ${added} test${added === 1 ? '' : 's'} frozen`);
  } else {
    lines.push(`nothing frozen; ${manifest.path} is unchanged`);
  }
  io.stdout(`${lines.join('\n')}\n`);
  return added > 0 ? 0 : 1;
}

// ---- freeze refresh / thaw

async function freezeUpdate(sub: 'refresh' | 'thaw', argv: string[], io: Io, help: string): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON, reason: { type: 'string' }, owner: { type: 'string' } } });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  const id = positionals[0];
  if (id === undefined || positionals.length > 1) throw new UsageError(`freeze ${sub} needs one frozen test id`);
  const reason = requireReason(values.reason, sub);
  const { model, save } = await openModel(values, io);
  const manifest = frozenManifest(model);
  const runner = manifest.data.runners?.[id];
  if (runner) {
    const updated = sub === 'thaw' ? { ...runner, reason, owner: values.owner ?? runner.owner, status: 'thawed' as const } : pinRunner(model, id, runner.assert, undefined, reason, values.owner ?? runner.owner);
    save();
    writeFrozen(model.root, manifest.path, { ...manifest.data, runners: { ...manifest.data.runners, [id]: updated } });
    io.stdout(`${sub === 'thaw' ? 'thawed' : 'refreshed'} runner ${id} (${describeRunnerPin(updated)})\nwrote ${manifest.path}\n`);
    return 0;
  }
  const entry = manifest.data.tests[id];
  if (!entry) {
    const near = closest(id, [...Object.keys(manifest.data.tests), ...Object.keys(manifest.data.runners ?? {})]);
    throw new UsageError(`'${id}' is not in ${manifest.path}${near === undefined ? '' : ` (did you mean '${near}'?)`}`);
  }
  const owner = values.owner ?? entry.owner;
  let updated: FrozenEntry;
  const lines: string[] = [];
  if (sub === 'thaw') {
    updated = { ...entry, reason, owner, status: 'thawed' };
    lines.push(`thawed ${id}: its next change may edit it and re-pin it with 'tripwire freeze refresh'; it must still exist and run`);
  } else {
    const { file, name } = splitId(id);
    const test = theTest(testsOf(model, file), file, name);
    const refusal = whyNotFreezable(test);
    if (refusal !== null) throw new UsageError(`cannot re-pin '${id}': ${refusal}`);
    updated = pin(model, file, test, reason, owner);
    const changes = pinChanges(entry, updated);
    lines.push(changes.length === 0 ? `refreshed ${id}: pin unchanged (${describePin(updated)})` : `refreshed ${id}: ${changes.join(', ')}`);
    if (changes.length > 0 && entry.status === 'frozen') {
      lines.push(`Commit this manifest change on its own: 'tripwire check --base' reports a diff that changes a frozen test and its pin together, unless the owner thawed it first.`);
    }
  }
  save();
  writeFrozen(model.root, manifest.path, { ...manifest.data, tests: { ...manifest.data.tests, [id]: updated } });
  lines.push(`wrote ${manifest.path}`);
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

// ---- freeze list

interface ListedEntry extends FrozenEntry {
  id: string;
  state: string[];
}

async function freezeList(argv: string[], io: Io, help: string): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...COMMON, format: { type: 'string', default: 'text' } } });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`unknown format '${values.format}' for freeze list (known: text, json)`);
  const { model, save } = await openModel(values, io);
  const manifest = frozenManifest(model);
  const locks = locksManifest(model);
  const problems = [...inspectFrozen(model, manifest), ...inspectRunners(model, manifest), ...inspectLocks(model, locks)];
  save();
  const stateOf = (subject: string): string[] => [...new Set(problems.filter((p) => p.subjects.includes(subject)).map((p) => p.kind))];
  const tests: ListedEntry[] = Object.keys(manifest.data.tests)
    .sort()
    .flatMap((id) => {
      const entry = manifest.data.tests[id];
      return entry ? [{ id, ...entry, state: stateOf(id) }] : [];
    });
  const files = Object.keys(locks.data.files)
    .sort()
    .map((path) => ({ path, hash: locks.data.files[path] ?? '', state: stateOf(path) }));
  const runners = Object.entries(manifest.data.runners ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, runner]) => ({ path, ...runner, state: stateOf(path) }));
  if (values.format === 'json') {
    io.stdout(`${JSON.stringify({ tests, ...(runners.length > 0 && { runners }), files }, null, 2)}\n`);
    return 0;
  }
  const label = (state: string[]): string => (state.length === 0 ? 'ok' : state.join(','));
  const width = Math.max(2, ...[...tests, ...runners, ...files].map((item) => label(item.state).length));
  const lines = tests.map((t) => `${label(t.state).padEnd(width)}  ${t.id}  [${t.status}, ${t.owner}] ${t.reason}`);
  lines.push(...runners.map((r) => `${label(r.state).padEnd(width)}  ${r.path}  [runner, ${r.status}, ${r.owner}] ${r.reason}`));
  lines.push(...files.map((f) => `${label(f.state).padEnd(width)}  ${f.path}  [locked]`));
  const weakened = [...tests, ...runners, ...files].filter((item) => item.state.length > 0).length;
  lines.push(`${tests.length} frozen test${tests.length === 1 ? '' : 's'}${runners.length > 0 ? ` and ${runners.length} frozen runner${runners.length === 1 ? '' : 's'}` : ''} in ${manifest.path}, ${files.length} locked file${files.length === 1 ? '' : 's'} in ${locks.path}; ${weakened === 0 ? 'all as pinned' : `${weakened} not as pinned (tripwire freeze verify)`}`);
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

// ---- lock

/** `tripwire lock <glob…>` records the SHA-256 of fixture and oracle files; `lock --verify` checks them. */
export async function lockCommand(argv: string[], io: Io, help: string): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON, verify: { type: 'boolean', default: false } } });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  if (values.verify && positionals.length > 0) throw new UsageError('lock --verify takes no globs: it checks every locked file');
  if (!values.verify && positionals.length === 0) throw new UsageError('lock needs the globs of the files to lock, or --verify');
  const { model, save } = await openModel(values, io);
  const locks = locksManifest(model);

  if (values.verify) {
    const problems = inspectLocks(model, locks);
    save();
    const count = Object.keys(locks.data.files).length;
    if (problems.length === 0) {
      io.stdout(`✔ ${count} locked file${count === 1 ? '' : 's'} unchanged (${locks.path})\n`);
      return 0;
    }
    io.stdout(await stylish(model, problems));
    return 1;
  }

  const files = new Set<string>();
  for (const pattern of positionals) {
    const asPath = repoPath(model, io, pattern);
    const matched = model.fileSet.has(asPath) ? [asPath] : model.matching([asPath]);
    if (matched.length === 0) throw new UsageError(`'${pattern}' matches no file of this repository; nothing was locked`);
    for (const file of matched) files.add(file);
  }
  const next = { version: 1 as const, files: { ...locks.data.files } };
  const lines: string[] = [];
  let changed = 0;
  for (const file of [...files].sort()) {
    const hash = sha256OfFile(model, file);
    if (hash === null) throw new UsageError(`cannot read ${file}; nothing was locked`);
    const before = next.files[file];
    if (before === hash) {
      lines.push(`unchanged ${file}`);
      continue;
    }
    next.files[file] = hash;
    changed++;
    lines.push(before === undefined ? `locked ${file} (${short(hash)})` : `re-locked ${file} (${short(before)} → ${short(hash)})`);
  }
  save();
  if (changed > 0) {
    writeLocks(model.root, locks.path, next);
    lines.push(`wrote ${locks.path}: ${changed} file${changed === 1 ? '' : 's'} locked`);
  } else {
    lines.push(`${locks.path} is unchanged`);
  }
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

// ---- helpers

function requireReason(reason: string | undefined, sub: string): string {
  if (reason === undefined || reason.trim() === '') throw new UsageError(`freeze ${sub} needs --reason "…": the reviewer asked to change the test reads it`);
  return reason.trim();
}

/** A path typed relative to the working directory, as a repository-relative POSIX path. */
function repoPath(model: RepoModel, io: Io, path: string): string {
  return toPosix(relative(model.root, resolve(io.cwd, path)));
}

async function stylish(model: RepoModel, problems: readonly FrozenProblem[]): Promise<string> {
  const findings: Finding[] = problems.map((p) => ({
    ruleId: FROZEN_RULE.id,
    messageId: MESSAGE_IDS[p.kind],
    severity: 'error',
    file: p.file,
    line: p.loc.line,
    column: p.loc.column,
    endLine: p.loc.endLine,
    endColumn: p.loc.endColumn,
    message: p.message,
    ...(p.related && { related: p.related }),
  }));
  return report(
    'stylish',
    { findings, summary: { errors: findings.length, warnings: 0, files: model.files.length, rules: 1, ms: 0 } },
    { cwd: model.root, color: false, rules: [{ id: FROZEN_RULE.id, description: FROZEN_RULE.meta.description, url: FROZEN_RULE.meta.url }], toolVersion: VERSION },
  );
}
