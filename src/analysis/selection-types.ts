import type { Loc } from '../types.js';

/** A value from a map, with where it was written (a spread can bring it from another file). */
export interface Located<T> {
  value: T;
  file: string;
  loc: Loc;
}

export interface TouchfileEntry {
  key: Located<string>;
  globs: Located<string>[];
  /** The configured map it came from: an export name, or `file#path` for JSON/YAML. */
  map: string;
  /** The value could not be evaluated, or is not a list of glob strings (reported); the key still counts, its globs are unknown. */
  unevaluated?: true;
}

export interface PaidTestId {
  id: string;
  file: string;
  loc: Loc;
  /** `call`: declared by an id call; `registration`: a touchfile list names the file's own path. */
  via: 'call' | 'registration';
}

/**
 * Everything diff-based selection needs, evaluated statically from the maps
 * and the paid test files. Evaluation problems are not here: the rules report them.
 */
export interface Selection {
  /** Every touchfile entry of every configured map, in map order. */
  touchfiles: TouchfileEntry[];
  /** Test id → its tier (null when the value could not be evaluated or is not a string: reported), when a tier map is configured. */
  tiers: Map<string, Located<string | null>> | null;
  /** The global touchfile globs, when configured. */
  globals: Located<string>[] | null;
  /** Every id that a paid test file declares or registers. */
  paidIds: PaidTestId[];
  /**
   * False when a configured touchfile map (or the tier map) could not be read as a whole (its file missing, its value not an
   * object): what it would have said is unknown, so "no entry for this id" and its kin are not reported on top of that one finding.
   */
  touchfilesComplete?: boolean;
  tiersComplete?: boolean;
  /**
   * False when the configured global list is unknown in whole or in part (its file missing, its value not a list of strings,
   * an item that could not be evaluated): an unknown item may be any file, so "no global covers it" is not reported.
   */
  globalsComplete?: boolean;
}

export interface SelectedId {
  id: string;
  tier: string | null;
  /** Why it was selected: the changed file and the glob that matched it, or the global that changed. */
  reasons: SelectReason[];
}

/**
 * A changed file and the glob that matched it (or the global that changed); or,
 * with `maps.globals.selfReference: "map-diff"`, the map file whose entry for
 * the id changed (`glob` is then the map's label and `mapDiff` what changed).
 */
export interface SelectReason {
  file: string;
  glob: string;
  global: boolean;
  mapDiff?: MapChange['change'];
  /** A paid lane in CI changed: `file` is its workflow and `glob` its job (`job evals`). */
  lane?: LaneChange['change'];
}

/** A paid CI job (paid-ci-lanes' paid lane) that is new, or whose definition differs from the job at the merge base. */
export interface LaneChange {
  file: string;
  job: string;
  change: 'added' | 'changed';
}

/** A key whose entry differs between the map at the merge base and the map now. */
export interface MapChange {
  id: string;
  /** The file its entry is written in now, and the map's label. */
  file: string;
  map: string;
  /** added: a new key; globs: its touchfile globs changed; tier: its tier changed. */
  change: 'added' | 'globs' | 'tier';
}
