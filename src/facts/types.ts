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
  /** Writes into the value a module-level name holds (`MAP.x = []`, `delete MAP.x`, `Object.assign(MAP, …)`, `MAP.x.push(…)`). */
  mutations: MutationFact[];
  /** Syntax errors reported by the parser; a file with any is a finding. */
  parseErrors: { message: string; loc: Loc }[];
  /** Every test and suite the file declares, in source order (see TestFact). */
  tests: TestFact[];
  /** Env vars the file sets: `process.env.X = …`, `{ ...process.env, X }`, `env: { X }`, `vi.stubEnv('X')`. */
  envWrites: EnvWriteFact[];
  /** Test-runner detection outside env reads: `typeof describe`, `globalThis.__vitest_worker__`, `'VITEST' in process.env`. */
  testProbes: TestProbeFact[];
  /** String literals that look like a repository path, an env var name or a CLI flag (module specifiers excluded). */
  strings: StringFact[];
  /** CLI flags declared by a literal option list: `parseArgs({ options })`, `.option('--x')`. */
  flags: FlagFact[];
  /** What the file changes in the process it runs in: how a test plants fakes before it runs code. */
  plants: PlantFacts;
  /**
   * Extraction ran out of stack (a file nested too deeply): the facts are
   * empty but for the parse error. How deep a parse gets depends on the stack
   * left to the caller, not only on the text, so these are never cached.
   */
  outOfStack?: true;
}

/**
 * A test that sets its own env vars and PATH and writes its own executables
 * decides what a key read or a CLI spawn reaches in its process.
 */
export interface PlantFacts {
  /** Env vars the file sets or deletes in its own process: `process.env.X = …`, `delete process.env.X`, `vi.stubEnv('X')`. */
  env: string[];
  /** Base names of the files it writes (`writeFileSync(join(dir, 'claude'), …)`). */
  files: string[];
  /** It creates a directory (`mkdtemp`, `mkdir`). */
  dirs: boolean;
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
  | { kind: 'commonjs'; loc: Loc }
  /** `export interface X`, `export type X = …`, `export type { X }`, `export { type X } from './x'`: a name that runs nothing, but that the module does export. */
  | { kind: 'type'; name: string; loc: Loc };

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
  | {
      kind: 'env';
      name: string;
      eager: boolean;
      loc: Loc;
      /**
       * Not a read that feeds a call: `write` sets or deletes the variable;
       * `save` keeps or asserts its value in a file that also writes it (save and restore).
       */
      access?: 'write' | 'save';
    };

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

/** A write into the object or array a name holds, anywhere in the file where the name is not shadowed. */
export interface MutationFact {
  name: string;
  /** The mutating expression, shortened: `MAP.basic = …`, `delete MAP.basic`, `Object.assign(MAP, …)`, `MAP.x.push(…)`. */
  how: string;
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

/**
 * How a test or suite is declared to run: `.skip`, `xit`, `{ skip: true }`
 * and a run-time `t.skip()` are all `skip`; jest's `.failing` is `fails`;
 * bun's `.if` is `runIf`.
 */
export type TestModifier = 'skip' | 'only' | 'todo' | 'fails' | 'skipIf' | 'runIf' | 'concurrent' | 'sequential' | 'each' | 'for';

export interface TestFact {
  kind: 'test' | 'suite';
  /** The titles from the outermost suite down, joined with ' > ': the test id without its `path::`. Parametrized titles keep `%s`/`$name`. */
  name: string;
  /** Part of a title could not be resolved statically and stands as `${source text}`. */
  dynamic: boolean;
  /** In ms, its own or the nearest enclosing one; null when set to an expression that cannot be evaluated. */
  timeout?: number | null;
  retry?: number | null;
  /** Its own modifiers, sorted. */
  modifiers: TestModifier[];
  /** The modifiers of its enclosing suites and of the file, sorted. */
  inherited: TestModifier[];
  loc: Loc;
}

/**
 * What a frozen test pins of its body. Only the frozen layer reads these, for
 * the few files a manifest names, so they are extracted apart from FileFacts
 * (RepoModel.pinnedFacts): hashing every test body of a repository cost a
 * fifth of a cold check that pins nothing.
 */
export interface PinnedTestFact extends TestFact {
  /** `sha256:<hex>` of the body's syntax tree without positions, comments or formatting. */
  hash: string;
  /** Assertion calls in the body, or the `expect.assertions(n)`/`t.plan(n)` value when larger. */
  assertions: number;
  /** The top-level names of its file (declarations and import bindings) its body reads, sorted; absent when none. */
  reads?: string[];
}

/** FileFacts with what the frozen layer pins: each test's body, and the declarations a test may read besides it. */
export interface PinnedFacts extends FileFacts {
  tests: PinnedTestFact[];
  /** In a file that declares tests: each named top-level declaration, hashed, with the top-level names it reads. */
  declarations?: DeclarationFact[];
}

/** A named top-level declaration: what a frozen test that reads it pins. */
export interface DeclarationFact {
  name: string;
  /** `sha256:<hex>` of its syntax tree without positions, comments or formatting. */
  hash: string;
  /** The top-level names of the file it reads, sorted. */
  reads: string[];
}

export interface EnvWriteFact {
  name: string;
  loc: Loc;
}

export interface TestProbeFact {
  via: 'typeof' | 'global' | 'env-in';
  /** The global (`describe`, `__vitest_worker__`) or env var (`VITEST`) probed. */
  name: string;
  loc: Loc;
}

export interface StringFact {
  value: string;
  loc: Loc;
}

export interface FlagFact {
  /** With its dashes: `--base`, `-b`. */
  name: string;
  loc: Loc;
}

/** A run of literal text on one line, where it stands in the file. */
export interface TextRun {
  text: string;
  loc: Loc;
}

/** An env var named lexically: in a shell or Python line, or a shell code block. */
export interface LexicalEnvRef {
  name: string;
  op: 'set' | 'read';
  loc: Loc;
}

export interface HeadingFact {
  level: number;
  /** The rendered text, without markup. */
  text: string;
  /** GitHub's anchor for it, deduplicated with `-1`, `-2` like GitHub. */
  anchor: string;
  loc: Loc;
}

export interface LinkFact {
  /** `definition`: a `[label]: target` line; reference-style uses are not repeated. */
  kind: 'link' | 'image' | 'definition';
  target: string;
  /** Where the target is written. */
  loc: Loc;
}

export interface FenceFact {
  /** The whole info string, and its first word. */
  info: string;
  lang: string;
  /** The opening line. */
  loc: Loc;
  /** The content, one run per line. */
  lines: TextRun[];
  /** Shell blocks only: the commands, as argv words. */
  commands: Word[][];
  /** Shell blocks only: `$X`, `${X}`, `X=…`, `export X=…`, `env X=…`. */
  env: LexicalEnvRef[];
}

export interface FrontMatterEntry {
  /** Dotted path: `metadata.owner`, `tools.0`. */
  key: string;
  /** Scalar value as text; null for a collection or an empty value. */
  value: string | null;
  /** The value's position, or the key's for a collection. */
  loc: Loc;
}

/** Facts of a Markdown file, from one markdown-it parse. */
export interface MarkdownFacts {
  kind: 'markdown';
  frontMatter: { entries: FrontMatterEntry[]; lines: TextRun[] } | null;
  headings: HeadingFact[];
  /** Anchors that HTML in the file declares (`id="…"`, `name="…"`). */
  htmlAnchors: string[];
  links: LinkFact[];
  /** Inline code spans. */
  code: TextRun[];
  /** Fenced and indented code blocks. */
  fences: FenceFact[];
  /** Prose, heading text and inline HTML: every literal text run outside code and link targets. */
  text: TextRun[];
  parseErrors: { message: string; loc: Loc }[];
  /** As for FileFacts: extraction ran out of stack, and these facts are not cached. */
  outOfStack?: true;
}

/** A `${{ secrets.X }}` reference in a workflow, or an API-key variable set from one. */
export interface SecretFact {
  /** The secret's name; null when an expression computes it (`secrets[matrix.key]`, `toJSON(secrets)`). */
  name: string | null;
  /** The key the value is assigned to (an `env:` variable, a `with:` input), if any. */
  key: string | null;
  /** The value holding the reference. */
  loc: Loc;
}

/** An `if:` condition as written, with where it is. */
export interface ConditionFact {
  text: string;
  loc: Loc;
}

export interface WorkflowStepFact {
  index: number;
  name: string | null;
  /** The step (its first key). */
  loc: Loc;
  if: ConditionFact | null;
  run: { text: string; loc: Loc } | null;
  uses: { value: string; loc: Loc } | null;
  /** Scalar `with:` inputs. */
  with: { key: string; value: string; loc: Loc }[];
  /** `working-directory:` as written. */
  cwd: string | null;
  /** Every secret referenced under the step (its env, inputs, run text). */
  secrets: SecretFact[];
}

export interface WorkflowJobFact {
  id: string;
  name: string | null;
  /** The job's key. */
  loc: Loc;
  if: ConditionFact | null;
  needs: string[];
  /** A reusable workflow the job calls instead of running steps. */
  uses: { value: string; loc: Loc } | null;
  /** `secrets: inherit`: the called workflow receives every secret. */
  inheritSecrets: boolean;
  /** `defaults.run.working-directory` as written. */
  cwd: string | null;
  /** Secrets referenced under the job outside its steps (env, strategy, services, `with:`, `secrets:`). */
  secrets: SecretFact[];
  steps: WorkflowStepFact[];
  /** `outputs:`, each value as written (`${{ steps.filter.outputs.evals }}`). */
  outputs: { name: string; text: string; loc: Loc }[];
  /** SHA-256 of what the job is (its definition and the workflow's settings, as data: comments and key order aside); null when it cannot be built. */
  digest: string | null;
}

/** Facts of a GitHub Actions workflow file, from one `yaml` parse. */
export interface WorkflowFacts {
  kind: 'workflow';
  parseErrors: { message: string; loc: Loc }[];
  /** Parts that are not the shape GitHub runs (`jobs` not a mapping, a step that is not one): reported, never skipped. */
  shapeErrors: { message: string; loc: Loc }[];
  /** The events that trigger it (`on:`), each where it is named. */
  events: { name: string; loc: Loc }[];
  /** Secrets the workflow-level `env:` references. */
  secrets: SecretFact[];
  /** `defaults.run.working-directory` as written. */
  cwd: string | null;
  jobs: WorkflowJobFact[];
}

/** What the fact cache holds as records: the facts of a script or of a Markdown file (values derived from a text, and parts of facts, are in its tables). */
export type CachedFacts = FileFacts | MarkdownFacts;
