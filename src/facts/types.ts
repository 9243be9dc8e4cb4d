import type { Loc } from '../types.js';

/**
 * Per-file facts: plain JSON data, independent of the configuration, so that
 * they can be cached by content hash and shared by the CLI and ESLint.
 */
export interface FileFacts {
  /** Bumped whenever the shape or the extraction changes. */
  kind: 'script';
  imports: ImportFact[];
  exports: ExportFact[];
  mocks: MockFact[];
  /** Top-level units: one per top-level declaration, plus `<init>` for bare statements. */
  units: Unit[];
  suppressions: Suppression[];
  /** Top-level variable declarations with a plain name, their initializers as static expressions. */
  constants: ConstantFact[];
  /** Calls to the callee names the extraction was asked for (test-id and self-gate helpers). */
  calls: CallFact[];
  /** Comparisons of an env var with a string literal (`process.env.EVALS_TIER === 'gate'`). */
  envCompares: EnvCompareFact[];
  /** Syntax errors reported by the parser; a file with any is a finding. */
  parseErrors: { message: string; loc: Loc }[];
}

export type ImportKind = 'static' | 'side-effect' | 'dynamic' | 'require' | 'reexport';

export interface ImportBinding {
  /** Exported name in the target: a name, `default`, or `*` for a namespace. */
  imported: string;
  /** Local name in this file (for re-exports: the exported name). */
  local: string;
  typeOnly: boolean;
}

export interface ImportFact {
  specifier: string;
  kind: ImportKind;
  /** The whole declaration is type-only (`import type`, `export type … from`). */
  typeOnly: boolean;
  bindings: ImportBinding[];
  loc: Loc;
  /** For dynamic import/require: the unit it occurs in (its code runs only when the unit runs). */
  unit?: string;
  /** For dynamic import/require: executed when the module loads. */
  eager?: boolean;
}

export type ExportFact =
  /** `export { local as name }`, `export function name`, `export default …` (local may be `default`). */
  | { kind: 'local'; name: string; local: string; loc: Loc }
  /** `export { a as b } from './x'` or `export * as ns from './x'` (imported `*`). */
  | { kind: 'reexport'; name: string; specifier: string; imported: string; loc: Loc }
  /** `export * from './x'`. */
  | { kind: 'star'; specifier: string; loc: Loc }
  /** `module.exports = …` / `exports.x = …`: every unit is reachable. */
  | { kind: 'commonjs'; loc: Loc };

export interface MockFact {
  specifier: string;
  /** `vi.mock`, `jest.mock`, `mock.module`, … */
  via: string;
  loc: Loc;
}

export interface Ref {
  /** A top-level name of this file (a declaration or an import binding). */
  name: string;
  /** When `name` is a namespace import: the accessed member, if static. */
  member?: string;
  /** The reference is called (or constructed) while the module loads. */
  eagerCall: boolean;
  loc: Loc;
}

export interface Unit {
  /** Declared local names (a destructuring declares several); `<init>` for bare top-level statements. */
  names: string[];
  loc: Loc;
  refs: Ref[];
  sites: Site[];
}

/**
 * A resolved shell word: the literal text, or null where it could not be
 * evaluated statically.
 */
export type Word = string | null;

export type Site =
  | {
      kind: 'spawn';
      /** `child_process.spawn`, `execa`, `Bun.spawn`, `$` … */
      via: string;
      /** Each command the call runs (a shell string may hold several), as argv words. */
      commands: Word[][];
      eager: boolean;
      loc: Loc;
    }
  | {
      kind: 'request';
      via: string;
      /** Host name when the URL is known statically (its constant head suffices). */
      host: string | null;
      url: string | null;
      eager: boolean;
      loc: Loc;
    }
  | { kind: 'env'; name: string; eager: boolean; loc: Loc };

export interface Suppression {
  /** `next-line` applies to loc.line + 1, `line` to loc.line. */
  scope: 'next-line' | 'line';
  rules: string[];
  reason: string | null;
  loc: Loc;
}

/**
 * A statically evaluable expression, kept as data so that maps and ids can be
 * evaluated across files from cached facts. What cannot be evaluated is kept
 * as `unsupported` with its reason, so that evaluation fails closed where it is used.
 */
export type Expr =
  | { k: 'lit'; v: string | number | boolean | null; loc: Loc }
  | { k: 'arr'; items: Expr[]; loc: Loc }
  | { k: 'obj'; props: ObjProp[]; loc: Loc }
  | { k: 'spread'; e: Expr; loc: Loc }
  /** A name: a top-level constant or an import binding of the file. */
  | { k: 'ref'; name: string; loc: Loc }
  | { k: 'member'; obj: Expr; prop: Expr; loc: Loc }
  /** String concatenation and template literals. */
  | { k: 'concat'; parts: Expr[]; loc: Loc }
  /** A parameter of a local function: bound at the function's call sites. */
  | { k: 'param'; fn: string; index: number; loc: Loc }
  /** Each element of an array, for a loop variable (`for…of`, `.forEach`, `.map`). */
  | { k: 'each'; of: Expr; loc: Loc }
  | { k: 'unsupported'; why: string; loc: Loc };

export type ObjProp = { key: Expr; value: Expr; loc: Loc } | { k: 'spread'; e: Expr; loc: Loc };

export interface ConstantFact {
  name: string;
  kind: 'const' | 'let' | 'var';
  expr: Expr;
  loc: Loc;
}

export interface CallFact {
  /** The names the callee answers to: `helpers.runEval` → [`helpers.runEval`, `runEval`]; `describe.skipIf(c)(…)` → [`describe.skipIf`, `skipIf`, `describe`]. */
  names: string[];
  args: Expr[];
  loc: Loc;
}

export interface EnvCompareFact {
  name: string;
  value: string;
  loc: Loc;
}
