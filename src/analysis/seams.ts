import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { pythonEnvRefs, scriptLanguage, shellScriptEnvRefs, type ScriptLanguage } from '../facts/env-lexical.js';
import type { FileFacts, MarkdownFacts } from '../facts/types.js';
import { isMarkdownFile } from '../util/file-kinds.js';
import { IDENTIFIER, isIdentifierAt } from '../util/identifier.js';
import { isScriptFile } from '../util/file-kinds.js';
import { compileGlobs } from '../util/glob.js';
import type { Loc } from '../types.js';
import { defineMarkdownPart, definePart, type RepoModel } from '../model/model.js';
import { textKind } from './text-kind.js';
import { PAID_COMMANDS, PAID_ENV } from '../vocab/paid.js';
import { isAmbientEnv, RUNNER_ENV } from '../vocab/env.js';
import { compareText } from '../util/compare.js';

/** Directories whose contents exist only for tests, wherever they sit. */
export const FIXTURE_DIRS: ReadonlySet<string> = new Set(['fixtures', '__fixtures__', 'testdata', 'test-fixtures', '__mocks__']);

/** A credential's name (`*_API_KEY`, `*_TOKEN`, `*_SECRET`, …): a product input that tests set to a fake value, not a seam. */
const CREDENTIAL = /(?:^|_)(?:API_?KEY|KEY_ID|TOKEN|SECRET|SECRET_KEY|ACCESS_KEY|PASSWORD|PASSWD|CREDENTIALS?|AUTH)$/;

export function isCredentialEnv(name: string): boolean {
  return CREDENTIAL.test(name);
}

/** A variable of an agent CLI the harness drives (`OPENCODE_CONFIG_DIR`, `CLAUDE_CONFIG_DIR`): that tool defines it, not the tests. */
function isToolEnv(name: string, commands: ReadonlySet<string>): boolean {
  const head = name.split('_')[0]?.toLowerCase() ?? '';
  return name.includes('_') && commands.has(head);
}

/** Cloud platforms whose variables (`AWS_REGION`, `VERCEL_ENV`) their own tools define. */
const PLATFORM_FAMILIES = ['AWS', 'AZURE', 'GOOGLE', 'GCP', 'GCLOUD', 'CLOUDSDK', 'VERCEL', 'NETLIFY', 'CLOUDFLARE', 'HEROKU', 'FLY', 'DOCKER', 'KUBERNETES'];

/**
 * The family a variable belongs to: its first word (`OPENAI` of
 * `OPENAI_BASE_URL`). The families of the model vendors' keys and of the cloud
 * platforms are those services' settings, never a seam this repository's
 * tests invented.
 */
function familyOf(name: string): string {
  return name.includes('_') ? (name.split('_')[0] ?? '') : '';
}

export interface EnvUse {
  name: string;
  op: 'set' | 'read';
  file: string;
  loc: Loc;
}

export interface TestAreas {
  /** Directories that hold only tests and their support (no shipped file). */
  roots: readonly string[];
  isTestOnly(file: string): boolean;
  /** Files and directories inside the test roots and fixture directories (the roots themselves excluded). */
  paths: ReadonlySet<string>;
  /** Stub executables (files directly in a `bin/` of a test area), by name. */
  stubs: ReadonlyMap<string, string>;
  /** Every directory of the repository, for telling a path that exists from one that does not. */
  dirs: ReadonlySet<string>;
}

export interface Vocabulary {
  areas: TestAreas;
  /**
   * Names only the tests use: stub executables and fixture specimen
   * directories (`green-pr` of `fixtures/specimens/green-pr/`) whose name is
   * distinctive (a `-` or `_`, five characters or more, no extension) and
   * that no file or directory outside the tests bears → where.
   */
  names: ReadonlyMap<string, string>;
  /** Env vars set or read only by tests and fixtures → where, sets first. */
  env: ReadonlyMap<string, readonly EnvUse[]>;
  /** Words the configuration declares test-only. */
  tokens: readonly string[];
}

// Keys of this module's entries in the model's per-run memo table.
const AREAS = {};
const USES = {};
const VOCABULARY = {};
const SHIPPED = {};

/** The directories above a repository-relative file, nearest first. */
function ancestors(file: string): string[] {
  const dirs: string[] = [];
  for (let slash = file.lastIndexOf('/'); slash > 0; slash = file.lastIndexOf('/', slash - 1)) dirs.push(file.slice(0, slash));
  return dirs;
}

/**
 * Where the tests live. A test root is the top-most directory above a test
 * file that holds no shipped file: `tests/` for `tests/<skill>/case.test.ts`,
 * nothing for a test colocated with shipped source (only the file itself is
 * test-only). Fixture directories are test-only wherever they are.
 */
export function testAreas(model: RepoModel): TestAreas {
  return model.memo(AREAS, () => computeTestAreas(model));
}

function computeTestAreas(model: RepoModel): TestAreas {
  const testFiles = model.testFileSet();
  const excluded = compileGlobs(model.config.shipped.exclude);
  const shippedDirs = new Set(model.matching(model.config.shipped.include).filter((file) => !excluded(file) && !testFiles.has(file)).flatMap(ancestors));
  const roots = new Set<string>();
  for (const file of testFiles) {
    const chain = ancestors(file).reverse();
    const root = chain.find((dir) => !shippedDirs.has(dir));
    if (root !== undefined) roots.add(root);
  }
  const rootList = [...roots].filter((root) => ![...roots].some((other) => other !== root && root.startsWith(`${other}/`))).sort();

  /** The directory above which a test-only file's path stops being test-only; undefined when it is not test-only. */
  const areaTop = (file: string): string | null | undefined => {
    const root = rootList.find((r) => file.startsWith(`${r}/`));
    if (root !== undefined) return root;
    const segments = file.split('/');
    const fixture = segments.slice(0, -1).findIndex((segment) => FIXTURE_DIRS.has(segment));
    if (fixture !== -1) return fixture === 0 ? '' : segments.slice(0, fixture).join('/');
    return testFiles.has(file) ? null : undefined;
  };

  const paths = new Set<string>();
  const stubs = new Map<string, string>();
  const testOnly = new Set<string>();
  const dirs = new Set<string>();
  for (const file of model.files) {
    const above = ancestors(file);
    for (const dir of above) {
      // The directories above a known one are known too.
      if (dirs.has(dir)) break;
      dirs.add(dir);
    }
    const top = areaTop(file);
    if (top === undefined) continue;
    testOnly.add(file);
    paths.add(file);
    if (top !== null) {
      for (const dir of above) {
        if (dir === top) break;
        paths.add(dir);
      }
    }
    const parent = above[0] ?? '';
    if (parent === 'bin' || parent.endsWith('/bin')) {
      const name = posix.basename(file);
      if (!stubs.has(name)) stubs.set(name, file);
    }
  }
  const areas: TestAreas = { roots: rootList, isTestOnly: (file) => testOnly.has(file), paths, stubs, dirs };
  return areas;
}

/** The shipped artifacts: `shipped.include` minus `shipped.exclude`, never a test-only file. */
export function shippedFiles(model: RepoModel): string[] {
  // Kept with the facts: it depends on the listing and the configuration (the state), and the test areas take a walk of every path.
  return model.memo(SHIPPED, () => model.stored('shipped files', () => computeShippedFiles(model)));
}

function computeShippedFiles(model: RepoModel): string[] {
  const { include, exclude } = model.config.shipped;
  const excluded = compileGlobs(exclude);
  const areas = testAreas(model);
  const files = include.length === 0 ? [] : model.matching(include).filter((file) => !excluded(file) && !areas.isTestOnly(file));
  return files;
}

/**
 * The text of a file to scan lexically, or null for an unreadable one and one
 * that is not text (`textKind`). A shipped or test file whose content is not
 * text is reported rather than silently left out; one of a binary format is
 * not a text artifact.
 */
export function scanText(model: RepoModel, file: string): string | null {
  const text = model.text(file);
  if (text === null) return null;
  const kind = textKind(file, text);
  if (kind === 'text') return text;
  if (kind === 'not-text' && (shippedFiles(model).includes(file) || model.testFileSet().has(file))) model.recordNotText(file);
  return null;
}

export function linesOf(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function lineLoc(line: number, column: number, length: number): Loc {
  return { line, column, endLine: line, endColumn: column + length };
}

const YAML_ENV_KEY = /^\s*(?:-\s+)?([A-Z][A-Z0-9_]*)\s*:/d;
const YAML_ENV_READ = /\$\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)/dg;
const DOCKER_ENV = /^\s*(?:ENV|ARG)\s+([A-Za-z_][A-Za-z0-9_]*)/d;

/**
 * Where a file sets or reads env vars: TS/JS from its facts (a write is not
 * also a read), shell and Python scripts and extension-less stubs lexically,
 * shell code blocks in Markdown, and the places CI and package scripts set
 * them (`package.json` scripts, YAML `env:` keys, Dockerfiles, `.env` files).
 */
export function envUses(model: RepoModel, file: string): EnvUse[] {
  // Every test's uses make the vocabulary: kept as a part of the facts (memoized by the model), so a run need not load them all.
  if (isScriptFile(file)) return SCRIPT_ENV_USES(model, file) ?? [];
  return model.memoFor(USES, file, () => computeEnvUses(model, file));
}

function computeEnvUses(model: RepoModel, file: string): EnvUse[] {
  const uses: EnvUse[] = [];
  if (isMarkdownFile(file)) {
    // A test case written in prose sets variables in its words: `FORGE_FAKE=1 …`, "set `X` to …".
    const prose = testAreas(model).isTestOnly(file);
    return (prose ? MARKDOWN_ENV_USES_PROSE : MARKDOWN_ENV_USES)(model, file) ?? uses;
  }
  if (!hasLexicalEnv(file)) return uses;
  const text = scanText(model, file);
  return text === null ? uses : lexicalEnvUses(file, text);
}

// Parts of each file's facts: a verdict that read a changed file only through them holds while they are the same.
const SCRIPT_ENV_USES = definePart('env-uses', (facts, file) => scriptEnvUses(facts, file));
const MARKDOWN_ENV_USES = defineMarkdownPart('env-uses prose=false', (facts, file) => markdownEnvUses(facts, file, false));
const MARKDOWN_ENV_USES_PROSE = defineMarkdownPart('env-uses prose=true', (facts, file) => markdownEnvUses(facts, file, true));

/** Where a Markdown file sets or reads env vars: its shell fences, and with `prose` the assignments its words make. */
function markdownEnvUses(facts: MarkdownFacts, file: string, prose: boolean): EnvUse[] {
  const uses: EnvUse[] = [];
  for (const fence of facts.fences) for (const ref of fence.env) uses.push({ ...ref, file });
  if (prose) for (const run of [...facts.code, ...facts.text]) uses.push(...proseSets(run.text, run.loc, file));
  return uses;
}

/** Where a script sets or reads env vars, from its facts: a write is not also a read. */
function scriptEnvUses(facts: FileFacts, file: string): EnvUse[] {
  const uses: EnvUse[] = [];
  const written = new Set(facts.envWrites.map((write) => `${write.loc.line}:${write.loc.column}`));
  for (const write of facts.envWrites) uses.push({ name: write.name, op: 'set', file, loc: write.loc });
  for (const unit of facts.units) {
    for (const site of unit.sites) {
      if (site.kind === 'env' && !written.has(`${site.loc.line}:${site.loc.column}`)) uses.push({ name: site.name, op: 'read', file, loc: site.loc });
    }
  }
  for (const probe of facts.testProbes) if (probe.via === 'env-in') uses.push({ name: probe.name, op: 'read', file, loc: probe.loc });
  return uses;
}

/** Assignments (`X=1`) and "set `X` to …" in a run of prose or a code span of a Markdown test case. */
function proseSets(text: string, at: Loc, file: string): EnvUse[] {
  const sets: EnvUse[] = [];
  const add = (name: string, index: number): void => {
    sets.push({ name, op: 'set', file, loc: { line: at.line, column: at.column + index, endLine: at.line, endColumn: at.column + index + name.length } });
  };
  for (const match of text.matchAll(/(?<![\w$])([A-Z][A-Z0-9_]{2,})=(?=\S)/g)) add(match[1] ?? '', match.index ?? 0);
  for (const match of text.matchAll(/\bset\s+`?([A-Z][A-Z0-9_]{2,})`?\s+to\b/gi)) {
    const name = match[1] ?? '';
    if (/^[A-Z0-9_]+$/.test(name)) add(name, (match.index ?? 0) + match[0].indexOf(name));
  }
  return sets;
}

function kindOf(file: string): { yaml: boolean; dockerfile: boolean; packageJson: boolean; language: ScriptLanguage | null } {
  const base = posix.basename(file);
  const yaml = /\.ya?ml$/.test(base);
  const dockerfile = /^Dockerfile|\.dockerfile$/i.test(base);
  const dotenv = base === '.env' || base.startsWith('.env.') || base.endsWith('.env');
  const packageJson = base === 'package.json';
  return { yaml, dockerfile, packageJson, language: packageJson || yaml || dockerfile || dotenv ? 'shell' : scriptLanguage(file, '') };
}

/** Whether env vars in this (non-TS, non-Markdown) file are read lexically. */
export function hasLexicalEnv(file: string): boolean {
  return kindOf(file).language !== null;
}

/** Env uses of a shell or Python script, a stub, or a CI, package or container file, from its text. */
export function lexicalEnvUses(file: string, text: string): EnvUse[] {
  const uses: EnvUse[] = [];
  const { yaml, dockerfile, packageJson, language } = kindOf(file);
  if (language === null) return uses;
  const effective = language === 'unknown' ? (scriptLanguage(file, text) ?? 'unknown') : language;
  const lines = linesOf(text);
  const shellRefs = effective === 'python' ? [] : shellScriptEnvRefs(yaml || packageJson || dockerfile ? lines.map((line) => line.replace(/["']/g, ' ')) : lines);
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    const refs = effective === 'shell' ? (shellRefs[index] ?? []) : effective === 'python' ? pythonEnvRefs(line) : [...(shellRefs[index] ?? []), ...pythonEnvRefs(line)];
    for (const ref of refs) uses.push({ name: ref.name, op: ref.op, file, loc: lineLoc(lineNo, ref.index + 1, ref.name.length) });
    if (yaml) {
      const key = YAML_ENV_KEY.exec(line);
      const span = key?.indices?.[1];
      if (key?.[1] && span) uses.push({ name: key[1], op: 'set', file, loc: lineLoc(lineNo, span[0] + 1, key[1].length) });
      for (const match of line.matchAll(YAML_ENV_READ)) {
        const at = match.indices?.[1];
        if (match[1] && at) uses.push({ name: match[1], op: 'read', file, loc: lineLoc(lineNo, at[0] + 1, match[1].length) });
      }
    }
    if (dockerfile) {
      const match = DOCKER_ENV.exec(line);
      const at = match?.indices?.[1];
      if (match?.[1] && at) uses.push({ name: match[1], op: 'set', file, loc: lineLoc(lineNo, at[0] + 1, match[1].length) });
    }
  });
  return uses;
}

function compareUses(a: EnvUse, b: EnvUse): number {
  return (a.op === b.op ? 0 : a.op === 'set' ? -1 : 1) || compareText(a.file, b.file) || a.loc.line - b.loc.line || a.loc.column - b.loc.column;
}

/** A stand-in the harness configures: a file under a fixture directory or in a `bin/` of a test area. */
export function isStub(model: RepoModel, file: string): boolean {
  if (!testAreas(model).isTestOnly(file) || isMarkdownFile(file)) return false;
  const dirs = posix.dirname(file).split('/');
  return dirs.some((dir) => FIXTURE_DIRS.has(dir)) || dirs.at(-1) === 'bin';
}

/** Where snapshot and golden copies live: a file there renders something shipped, it does not use it. */
const RENDERING_DIRS = new Set(['golden', 'goldens', '__snapshots__', 'snapshots', 'expected', 'approved', 'rendered']);
const RENDERING_FILE = /\.(?:snap|golden|approved|received)(?:\.[\w]+)?$/;

/**
 * Test-side files that are copies or renderings of shipped files: under a
 * snapshot or golden directory, or at a path that ends the way a shipped
 * file's path does (`test/fixtures/skills/review/SKILL.md` for
 * `skills/review/SKILL.md`). Their variables are the shipped file's, not the tests'.
 */
function renderingsOfShipped(model: RepoModel, areas: TestAreas, shipped: readonly string[]): (file: string) => boolean {
  const tails = new Set<string>();
  for (const file of shipped) {
    if (isScriptFile(file)) continue;
    const parts = file.split('/');
    if (parts.length >= 2) tails.add(parts.slice(-2).join('/'));
  }
  return (file) => {
    if (!areas.isTestOnly(file) || isScriptFile(file)) return false;
    const parts = file.split('/');
    if (RENDERING_FILE.test(file) || parts.slice(0, -1).some((dir) => RENDERING_DIRS.has(dir))) return true;
    return parts.length >= 2 && tails.has(parts.slice(-2).join('/'));
  };
}

/**
 * Whether a line documents `name` as a setting for users: an instruction to
 * set or export it, an assignment, or the head of a list item or table row.
 */
function documentsSetting(line: string, name: string): boolean {
  const at = line.indexOf(name);
  if (at === -1) return false;
  const before = line.slice(0, at);
  const after = line.slice(at + name.length);
  if (/^`?\s*=/.test(after)) return true;
  if (/\b(?:set|sets|setting|export|override|overrides|configure|define|defaults?|environment variables?|env vars?)\b[^.!?]{0,60}$/i.test(before)) return true;
  return /^\s*(?:[-*+|]|\d+\.)\s*(?:\*\*)?`?$/.test(before) && /^`?(?:\*\*)?\s*(?:[:|=(—–-]|\s+-\s)/.test(after);
}

/**
 * Names that the repository documents for its users: named anywhere in
 * non-test, non-shipped prose (README, docs/), documented as a setting in
 * shipped prose ("Set `X` to cap …", `X=1`, a table row), or named in a
 * comment of shipped code.
 */
function documentedNames(model: RepoModel, areas: TestAreas, shipped: ReadonlySet<string>, candidates: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  // Only a name an identifier can spell is ever named in text.
  const names = [...candidates].filter((name) => IDENTIFIER.test(name));
  if (names.length === 0) return found;
  for (const file of model.files) {
    const markdown = isMarkdownFile(file);
    if (areas.isTestOnly(file) || !(markdown || shipped.has(file))) continue;
    const text = model.text(file);
    if (text === null) continue;
    const prose = markdown && !shipped.has(file);
    // Each candidate is looked for where it occurs (a native search), not by tokenizing every identifier of every file.
    for (const name of names) {
      if (found.has(name)) continue;
      for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
        if (!isIdentifierAt(text, at, name.length)) continue;
        if (prose) {
          found.add(name);
          break;
        }
        const lineStart = text.lastIndexOf('\n', at - 1) + 1;
        const lineEnd = text.indexOf('\n', at);
        const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
        // In shipped code, a comment that names the variable documents it ("Override the launcher with X").
        const comment = markdown ? -1 : line.search(/(?:^|\s)(?:\/\/|#|\/?\*)\s/);
        if (markdown ? documentsSetting(line, name) : comment !== -1 && at - lineStart > comment) {
          found.add(name);
          break;
        }
      }
    }
    if (found.size === names.length) break;
  }
  return found;
}

/**
 * The test-seam vocabulary of this repository, derived from it: env vars
 * that the tests and fixtures define (set, or a stub reads) and nothing
 * outside them defines, and the configured test-only words. A variable that
 * shipped code or text sets, that a container or `.env` file outside the
 * tests sets, or that the repository's own documentation names is part of
 * the product; so are credentials, the settings of the model vendors and
 * cloud platforms (`OPENAI_BASE_URL`, `AWS_REGION`), and the platform's variables. Shipped code
 * that *reads* a variable only the tests define is the carve-out itself, so
 * a shipped read does not make a variable part of the product. Copies and
 * renderings of shipped files under the tests are not test-side uses.
 */
export function testVocabulary(model: RepoModel): Vocabulary {
  return model.memo(VOCABULARY, () => computeTestVocabulary(model));
}

function computeTestVocabulary(model: RepoModel): Vocabulary {
  const areas = testAreas(model);
  const shipped = shippedFiles(model);
  const shippedSet = new Set(shipped);
  const isRendering = renderingsOfShipped(model, areas, shipped);
  const excluded = new Set([...PAID_ENV, ...model.config.paid.env, ...RUNNER_ENV]);
  const tools = new Set([...PAID_COMMANDS, ...model.config.paid.commands].map((command) => command.toLowerCase()));
  const env = new Map<string, EnvUse[]>();
  const defined = new Set<string>();
  const tests = model.testFileSet();
  const services = new Set([...PLATFORM_FAMILIES, ...[...PAID_ENV, ...model.config.paid.env].map(familyOf).filter((family) => family !== '')]);
  for (const file of model.files) {
    if (!areas.isTestOnly(file) || isRendering(file) || (isWorkflowOrManifest(file) && !tests.has(file))) continue;
    const stub = isStub(model, file);
    for (const use of envUses(model, file)) {
      if (excluded.has(use.name) || isAmbientEnv(use.name) || isCredentialEnv(use.name) || isToolEnv(use.name, tools)) continue;
      if (use.op === 'set' || stub) defined.add(use.name);
      const list = env.get(use.name);
      if (list) list.push(use);
      else env.set(use.name, [use]);
    }
  }
  for (const name of env.keys()) if (!defined.has(name)) env.delete(name);
  const product = new Set<string>();
  for (const file of model.files) {
    if (areas.isTestOnly(file) || isWorkflowOrManifest(file) || (!shippedSet.has(file) && isScriptFile(file))) continue;
    if (!shippedSet.has(file) && !isMarkdownFile(file) && !hasLexicalEnv(file)) continue;
    for (const use of envUses(model, file)) if (use.op === 'set' && env.has(use.name)) product.add(use.name);
  }
  for (const name of product) env.delete(name);
  for (const name of env.keys()) if (services.has(familyOf(name))) env.delete(name);
  for (const name of documentedNames(model, areas, shippedSet, new Set(env.keys()))) env.delete(name);
  for (const list of env.values()) list.sort(compareUses);
  const vocabulary: Vocabulary = { areas, env, names: testOnlyNames(model, areas), tokens: model.config.shipped.testTokens };
  return vocabulary;
}

/** The identity of a vocabulary's content (its areas follow from the configuration and the listing): what a verdict computed under it was given. */
export function vocabularyDigest(vocabulary: Vocabulary): string {
  return createHash('sha1')
    .update(JSON.stringify([[...vocabulary.env], [...vocabulary.names], vocabulary.tokens]))
    .digest('hex');
}

/** Name segments that mark an env var as a knob of the harness: `FORGE_FAKE_PUSH`, `APP_E2E_MODE`, `SKIP_EVAL_GUARD`. */
const KNOB_SEGMENTS: ReadonlySet<string> = new Set(['TEST', 'TESTS', 'TESTING', 'EVAL', 'EVALS', 'E2E', 'FIXTURE', 'FIXTURES', 'HARNESS', 'MOCK', 'MOCKS', 'MOCKED', 'STUB', 'STUBS', 'STUBBED', 'FAKE', 'FAKES']);

/** Whether an env var's name marks it as a harness knob: an upper-case name with a TEST, EVAL, E2E, FIXTURE, HARNESS, MOCK, STUB or FAKE segment. */
export function isHarnessKnobName(name: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(name) && name.split('_').some((segment) => KNOB_SEGMENTS.has(segment));
}

const KNOBS = {};

/**
 * Harness knobs no test sets yet: env vars that shipped code or a shipped
 * script reads, whose name marks them as a knob of the harness, and that
 * nothing defines as part of the product: no test or fixture defines them
 * (those are the test vocabulary), no shipped or non-test file sets them, the
 * repository's documentation does not name them, and they are none of the
 * variables the vocabulary leaves out (credentials, runner, platform, vendor
 * and tool variables). By variable, the reads in shipped files.
 */
export function harnessKnobs(model: RepoModel): ReadonlyMap<string, readonly EnvUse[]> {
  return model.memo(KNOBS, () => computeHarnessKnobs(model));
}

function computeHarnessKnobs(model: RepoModel): Map<string, EnvUse[]> {
  const vocabulary = testVocabulary(model);
  const shipped = shippedFiles(model);
  const excluded = new Set([...PAID_ENV, ...model.config.paid.env, ...RUNNER_ENV, 'NODE_ENV', 'MODE', 'BABEL_ENV']);
  const tools = new Set([...PAID_COMMANDS, ...model.config.paid.commands].map((command) => command.toLowerCase()));
  const services = new Set([...PLATFORM_FAMILIES, ...[...PAID_ENV, ...model.config.paid.env].map(familyOf).filter((family) => family !== '')]);
  const reads = new Map<string, EnvUse[]>();
  for (const file of shipped) {
    // A read or a condition: code and scripts, not prose.
    if (isMarkdownFile(file)) continue;
    for (const use of envUses(model, file)) {
      const { name } = use;
      if (use.op !== 'read' || !isHarnessKnobName(name) || vocabulary.env.has(name) || excluded.has(name)) continue;
      if (isAmbientEnv(name) || isCredentialEnv(name) || isToolEnv(name, tools) || services.has(familyOf(name))) continue;
      const list = reads.get(name);
      if (list) list.push(use);
      else reads.set(name, [use]);
    }
  }
  if (reads.size === 0) return reads;
  const areas = vocabulary.areas;
  const shippedSet = new Set(shipped);
  for (const file of model.files) {
    if (areas.isTestOnly(file)) continue;
    for (const use of envUses(model, file)) if (use.op === 'set') reads.delete(use.name);
  }
  for (const name of documentedNames(model, areas, shippedSet, new Set(reads.keys()))) reads.delete(name);
  for (const list of reads.values()) list.sort(compareUses);
  return reads;
}

/** Stub executables and fixture specimen directories with a distinctive name that nothing outside the tests bears. */
function testOnlyNames(model: RepoModel, areas: TestAreas): Map<string, string> {
  const distinctive = (name: string): boolean => name.length >= 5 && /[-_]/.test(name) && !name.includes('.') && /^[A-Za-z0-9][\w-]*$/.test(name);
  const candidates = new Map<string, string>();
  for (const [name, file] of areas.stubs) if (distinctive(name)) candidates.set(name, file);
  for (const path of areas.paths) {
    const segments = path.split('/');
    const fixture = segments.findIndex((segment) => FIXTURE_DIRS.has(segment));
    // Directories below a fixture directory: the specimens (the file itself is not one).
    for (let index = fixture + 1; fixture !== -1 && index < segments.length - 1; index++) {
      const name = segments[index] ?? '';
      if (distinctive(name) && !candidates.has(name)) candidates.set(name, segments.slice(0, index + 1).join('/'));
    }
  }
  if (candidates.size === 0) return candidates;
  for (const file of model.files) {
    if (areas.isTestOnly(file)) continue;
    for (const segment of file.split('/')) candidates.delete(segment);
  }
  return candidates;
}

/** CI workflows and package manifests set variables for the test jobs as often as for the product: neither side's evidence. */
function isWorkflowOrManifest(file: string): boolean {
  return file.startsWith('.github/') || posix.basename(file) === 'package.json';
}
