import { compileGlobs } from '../util/glob.js';
import type { Config, MapRef } from '../config/schema.js';
import type { Expr, FileFacts } from '../facts/types.js';
import { mapKey, mapLabel, touchfileRefs } from '../config/refs.js';
import type { Loc } from '../types.js';
import { Evaluator, type EvalError, type Value } from './evaluate.js';
import type { RepoModel } from '../model/model.js';
import { FILE_START } from '../model/positions.js';
import type { Located, PaidTestId, Selection, TouchfileEntry } from './selection-types.js';
import { paidTestFiles } from './paid-list.js';

// What the configuration points at, for the rules (which read the configuration only through the model and the analyses).
export { mapKey, mapLabel, mapRefs, touchfileRefs } from '../config/refs.js';

/**
 * What can go wrong reading each map and the paid tests' ids, by kind. The
 * analysis names the kind; each map rule maps the kinds of the map it owns to
 * its own message ids (rules/shared/map-findings.ts).
 */
export interface SelectionProblemKinds {
  touchfiles: 'unevaluable' | 'missingFile' | 'notAnObject' | 'notAGlobList';
  tiers: 'unevaluable' | 'missingFile' | 'notAnObject' | 'notAString';
  globals: 'unevaluable' | 'missingFile' | 'notAGlobList';
  ids: 'missingArgument' | 'unevaluable' | 'missingProperty' | 'notAString' | 'noTestId';
}

export type SelectionSource = keyof SelectionProblemKinds;

/** A problem found while reading a map or the ids: where it was read from (`source`) and what went wrong (`kind`). */
export type SelectionProblem = {
  [S in SelectionSource]: { source: S; kind: SelectionProblemKinds[S]; file: string; loc: Loc; message: string };
}[SelectionSource];

type MapSource = Exclude<SelectionSource, 'ids'>;

export interface SelectionResult {
  selection: Selection;
  problems: SelectionProblem[];
  /** The files each map was read from (config file, re-exporting modules, defining files), by map (`mapKey`: its file and label). */
  mapFiles: Map<string, string[]>;
  /** Per paid file: the tiers its self-gates name. */
  selfGates: Map<string, Located<string>[]>;
  /** The evaluated globals list's own location, for findings about the list as a whole. */
  globalsAt: { file: string; loc: Loc } | null;
}

/**
 * Reads the configured maps and every paid test file's ids statically. Called
 * once per run (the model memoizes it); the three map rules and `select`
 * share the result.
 */
export function computeSelection(model: RepoModel): SelectionResult {
  const evaluator = new Evaluator(model);
  const problems: SelectionProblem[] = [];
  const mapFiles = new Map<string, string[]>();
  const maps = model.config.maps;
  const report = (source: MapSource, errors: readonly EvalError[]): void => {
    for (const error of errors) problems.push({ source, kind: 'unevaluable', file: error.file, loc: error.loc, message: `cannot evaluate the map statically: ${error.message}` });
  };

  const readMap = (source: MapSource, ref: MapRef): Value | null => {
    if (!model.fileSet.has(ref.file)) {
      problems.push({ source, kind: 'missingFile', file: model.configFile ?? ref.file, loc: FILE_START, message: `map file '${ref.file}' (${mapLabel(ref)}) does not exist` });
      return null;
    }
    // A map is read whole by every run and changes seldom: kept, with the files evaluating it read.
    const result = model.stored(`map ${JSON.stringify(ref)}`, () => evaluator.evaluateRef(ref.file, ref));
    report(source, result.errors);
    mapFiles.set(mapKey(ref), result.files);
    return result.value;
  };

  const touchfiles: TouchfileEntry[] = [];
  let touchfilesComplete = true;
  for (const ref of touchfileRefs(model.config)) {
    const value = readMap('touchfiles', ref);
    if (value === null || value.t !== 'obj') touchfilesComplete = false;
    if (value === null) continue;
    if (value.t !== 'obj') {
      problems.push({ source: 'touchfiles', kind: 'notAnObject', file: value.file, loc: value.loc, message: `${mapLabel(ref)} is not an object of test id → globs` });
      continue;
    }
    for (const entry of value.entries) {
      if (entry.value.t === 'err') {
        report('touchfiles', entry.value.errors);
        touchfiles.push({ key: { value: entry.key, file: entry.keyFile, loc: entry.keyLoc }, globs: [], map: mapLabel(ref), unevaluated: true });
        continue;
      }
      const globs = stringList(entry.value);
      if (globs === null) {
        problems.push({ source: 'touchfiles', kind: 'notAGlobList', file: entry.value.file, loc: entry.value.loc, message: `touchfile entry '${entry.key}' is not a list of glob strings` });
        // Like an unevaluable value: the key is known, what it was meant to cover is not.
        touchfiles.push({ key: { value: entry.key, file: entry.keyFile, loc: entry.keyLoc }, globs: [], map: mapLabel(ref), unevaluated: true });
        continue;
      }
      touchfiles.push({ key: { value: entry.key, file: entry.keyFile, loc: entry.keyLoc }, globs, map: mapLabel(ref) });
    }
  }

  let tiers: Map<string, Located<string | null>> | null = null;
  let tiersComplete = true;
  if (maps?.tiers) {
    const value = readMap('tiers', maps.tiers);
    tiers = new Map();
    if (value === null || value.t !== 'obj') tiersComplete = false;
    if (value && value.t !== 'obj') problems.push({ source: 'tiers', kind: 'notAnObject', file: value.file, loc: value.loc, message: `${mapLabel(maps.tiers)} is not an object of test id → tier` });
    for (const entry of value?.t === 'obj' ? value.entries : []) {
      if (entry.value.t === 'str') {
        tiers.set(entry.key, { value: entry.value.v, file: entry.value.file, loc: entry.value.loc });
        continue;
      }
      if (entry.value.t === 'err') report('tiers', entry.value.errors);
      else problems.push({ source: 'tiers', kind: 'notAString', file: entry.value.file, loc: entry.value.loc, message: `the tier of '${entry.key}' is not a string` });
      // Reported once, here: the key still has a tier entry, its value is unknown.
      tiers.set(entry.key, { value: null, file: entry.keyFile, loc: entry.keyLoc });
    }
  }

  let globals: Located<string>[] | null = null;
  let globalsAt: SelectionResult['globalsAt'] = null;
  let globalsComplete = true;
  if (maps?.globals) {
    const reportedBefore = problems.length;
    const value = readMap('globals', maps.globals);
    globals = value === null ? null : stringList(value);
    if (value) globalsAt = { file: value.file, loc: value.loc };
    if (value && globals === null) problems.push({ source: 'globals', kind: 'notAGlobList', file: value.file, loc: value.loc, message: `${mapLabel(maps.globals)} is not a list of glob strings` });
    // Every problem reading the list (a missing file, an item that does not evaluate and was left out) leaves part of it unknown.
    globalsComplete = problems.length === reportedBefore;
  }

  const { paidIds, selfGates } = readPaidTests(model, evaluator, touchfiles, problems, touchfilesComplete);
  return { selection: { touchfiles, tiers, globals, paidIds, touchfilesComplete, tiersComplete, globalsComplete }, problems, mapFiles, selfGates, globalsAt };
}

/** What a paid file's id calls yield, in the order met: an id, a problem reading one, or the errors of evaluating one (possibly none). */
type DeclaredEvent =
  | { e: 'id'; id: string; loc: Loc }
  | { e: 'problem'; kind: 'missingArgument' | 'missingProperty' | 'notAString'; loc: Loc; message: string }
  | { e: 'unevaluable'; shape: string; errors: EvalError[] };

interface Declared {
  events: DeclaredEvent[];
  /** The tiers its self-gates name. */
  gates: Located<string>[];
  /** Whether evaluating them read no other file: then they follow from the file's facts alone. */
  alone: boolean;
}

function declaredIn(facts: FileFacts, file: string, evaluator: Evaluator, idShapes: Config['tests']['ids'], selfGate: Config['tests']['selfGate'], gateEnv: ReadonlySet<string>, tierValues: ReadonlySet<string>): Declared {
  const events: DeclaredEvent[] = [];
  let alone = true;
  const evaluate = (arg: Expr): { values: Value[]; errors: EvalError[] } => {
    const result = evaluator.evaluateExpr(file, arg);
    if (result.files.some((read) => read !== file)) alone = false;
    return result;
  };
  for (const call of facts.calls) {
    for (const shape of idShapes) {
      if (!call.names.includes(shape.call)) continue;
      const arg = call.args[shape.arg];
      if (!arg) {
        events.push({ e: 'problem', kind: 'missingArgument', loc: call.loc, message: `${shape.call}() has no argument ${shape.arg + 1} to read the test id from` });
        continue;
      }
      const result = evaluate(arg);
      events.push({ e: 'unevaluable', shape: shape.call, errors: result.errors });
      for (const value of result.values) {
        const target = shape.property === undefined ? value : propertyPath(value, shape.property);
        if (!target) {
          events.push({ e: 'problem', kind: 'missingProperty', loc: call.loc, message: `cannot resolve the test id of ${shape.call}(): no '${shape.property}' property` });
          continue;
        }
        if (target.t === 'err') {
          events.push({ e: 'unevaluable', shape: shape.call, errors: target.errors });
          continue;
        }
        const ids = target.t === 'arr' ? target.items : [target];
        for (const id of ids) {
          if (id.t === 'str') events.push({ e: 'id', id: id.v, loc: call.loc });
          else events.push({ e: 'problem', kind: 'notAString', loc: call.loc, message: `the test id of ${shape.call}() is not a string` });
        }
      }
    }
  }
  const gates: Located<string>[] = [];
  for (const compare of facts.envCompares) {
    if (gateEnv.has(compare.name) && tierValues.has(compare.value)) gates.push({ value: compare.value, file, loc: compare.loc });
  }
  for (const gate of selfGate) {
    if (!('call' in gate)) continue;
    for (const call of facts.calls) {
      if (!call.names.includes(gate.call)) continue;
      const arg = call.args[gate.arg];
      const values = arg ? evaluate(arg).values : [];
      for (const value of values) if (value.t === 'str') gates.push({ value: value.v, file, loc: call.loc });
    }
  }
  return { events, gates, alone };
}

/** Whether a file is one whose test ids the configuration declares intentionally dynamic. */
function dynamicIdFiles(model: RepoModel): (file: string) => boolean {
  const declared = model.config.tests.dynamicIds;
  return declared.length === 0 ? () => false : compileGlobs(declared.map((entry) => entry.file));
}

function stringList(value: Value): Located<string>[] | null {
  if (value.t !== 'arr') return null;
  const out: Located<string>[] = [];
  for (const item of value.items) {
    if (item.t !== 'str') return null;
    out.push({ value: item.v, file: item.file, loc: item.loc });
  }
  return out;
}

function readPaidTests(model: RepoModel, evaluator: Evaluator, touchfiles: readonly TouchfileEntry[], problems: SelectionProblem[], touchfilesComplete: boolean): { paidIds: PaidTestId[]; selfGates: Map<string, Located<string>[]> } {
  const { ids: idShapes, selfGate } = model.config.tests;
  const tierValues = new Set(model.config.maps?.tiers?.values ?? ['gate', 'periodic']);
  const gateEnv = new Set(selfGate.flatMap((gate) => ('env' in gate ? [gate.env] : [])));
  const paidIds: PaidTestId[] = [];
  const selfGates = new Map<string, Located<string>[]>();
  const dynamic = dynamicIdFiles(model);
  // Indexed once: checking every entry and every problem per paid file was quadratic in the number of tests.
  const registrations = entriesNamingFile(touchfiles);
  const problemFiles = new Set(problems.map((problem) => problem.file));
  // One id expression yields an alternative per loop element: a failure at the same node is one defect, not one per element.
  const reported = new Set<string>();
  const addProblem = (kind: SelectionProblemKinds['ids'], file: string, loc: Loc, message: string): void => {
    problemFiles.add(file);
    const key = `${kind}\0${file}:${loc.line}:${loc.column}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push({ source: 'ids', kind, file, loc, message });
  };
  const unevaluable = (shape: string, errors: readonly EvalError[], file: string): void => {
    // A file whose ids are declared dynamic (tests.dynamicIds) is known not to evaluate; still not a file without ids.
    if (dynamic(file)) problemFiles.add(file);
    else for (const error of errors) addProblem('unevaluable', error.file, error.loc, `cannot resolve the test id of ${shape}(): ${error.message}`);
  };

  // What each file declares depends on its own facts, and on other files only where an id is imported: kept per file when it does not.
  const name = `paid declarations ${JSON.stringify([idShapes, selfGate, [...tierValues]])}`;
  const declare = (facts: FileFacts, file: string): Declared => declaredIn(facts, file, evaluator, idShapes, selfGate, gateEnv, tierValues);
  for (const file of paidTestFiles(model)) {
    const declared = model.factPart(file, name, (facts) => declare(facts, file), (value) => value.alone);
    if (!declared) continue;
    const before = paidIds.length;
    for (const event of declared.events) {
      if (event.e === 'id') paidIds.push({ id: event.id, file, loc: event.loc, via: 'call' });
      else if (event.e === 'problem') addProblem(event.kind, file, event.loc, event.message);
      else unevaluable(event.shape, event.errors, file);
    }
    const declaredIds = new Set(paidIds.slice(before).map((paid) => paid.id));
    for (const entry of registrations.get(file) ?? []) {
      if (declaredIds.has(entry.key.value)) continue;
      declaredIds.add(entry.key.value);
      paidIds.push({ id: entry.key.value, file, loc: FILE_START, via: 'registration' });
    }
    // A map that could not be read may register the file: its absence from the others proves nothing.
    if (paidIds.length === before && !problemFiles.has(file) && touchfilesComplete) {
      addProblem('noTestId', file, FILE_START, `paid test file declares no test id: no ${idShapes.map((s) => `${s.call}()`).join(', ') || 'id call (configure tests.ids)'} and no touchfile entry names ${file}`);
    }
    if (declared.gates.length > 0) selfGates.set(file, declared.gates);
  }
  return { paidIds, selfGates };
}

/** The touchfile entries with a glob that names a file literally (a registration of that file's ids), by file, in map order. */
function entriesNamingFile(touchfiles: readonly TouchfileEntry[]): Map<string, TouchfileEntry[]> {
  const byFile = new Map<string, TouchfileEntry[]>();
  for (const entry of touchfiles) {
    for (const file of new Set(entry.globs.map((glob) => glob.value))) {
      const list = byFile.get(file);
      if (list) list.push(entry);
      else byFile.set(file, [entry]);
    }
  }
  return byFile;
}

function propertyPath(value: Value, path: string): Value | null {
  let current: Value | undefined = value;
  for (const key of path.split('.')) {
    current = current?.t === 'obj' ? current.entries.find((e) => e.key === key)?.value : undefined;
  }
  return current ?? null;
}

const SELECTION = {};

/** The evaluated maps and paid test ids, computed once per run and shared by the map rules and `select`. */
export function selectionOf(model: RepoModel): SelectionResult {
  return model.memo(SELECTION, () => computeSelection(model));
}
