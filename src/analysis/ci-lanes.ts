import { posix } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { basename, commandsOf } from '../facts/shell.js';
import { PACKAGE_RUNNERS, parseArguments, startRunner } from '../facts/runners.js';
import type { ConditionFact, SecretFact, WorkflowFacts, WorkflowJobFact, WorkflowStepFact } from '../facts/types.js';
import type { RepoModel } from '../model/model.js';
import { PAID_ENV, PAID_SUITE_WORD, WEAK_PAID_SUITE_WORD } from '../vocab/paid.js';
import { asText, conditionExpression, evaluate, parseExpression, substitute, truth, UNKNOWN_VALUE, type ExprValue, type ParsedExpression, type Resolve } from './gh-expression.js';
import { isPaidTest } from './paid-list.js';

/** What a CI step runs, by the free/paid line of `tests.include` and `tests.paid`. */
export interface StepRuns {
  /** Why it runs the free suite (`npm test` → `vitest run`), or null. */
  free: string | null;
  /** Why it runs paid tests, or null. */
  paid: string | null;
}

/** The names that hold a model API key, upper-cased: the built-in key variables, `paid.env`, and the extra names given (paid-ci-lanes' `secrets`). */
export function modelKeyNames(model: RepoModel, extra: readonly string[]): Set<string> {
  return new Set([...PAID_ENV, ...model.config.paid.env, ...extra].map((name) => name.toUpperCase()));
}

/** Whether a secret reference holds a model key: true, false, or null when an expression chooses the secret at run time. */
export function holdsModelKey(secret: SecretFact, keys: ReadonlySet<string>): boolean | null {
  if (secret.key !== null && keys.has(secret.key.toUpperCase())) return true;
  if (secret.name === null) return null;
  return keys.has(secret.name.toUpperCase());
}

/**
 * The paid lanes of a workflow: the jobs that receive a model key (from the
 * workflow's env, their own or a step's), pass every secret to a reusable
 * workflow, or have a step that runs paid tests. A secret chosen at run time
 * counts as a key: a paid lane is never missed.
 */
export function paidJobs(model: RepoModel, facts: WorkflowFacts, keys: ReadonlySet<string>): WorkflowJobFact[] {
  const keyed = (secrets: readonly SecretFact[]): boolean => secrets.some((secret) => holdsModelKey(secret, keys) !== false);
  if (keyed(facts.secrets)) return [...facts.jobs];
  return facts.jobs.filter(
    (job) =>
      keyed(job.secrets) ||
      (job.uses !== null && job.inheritSecrets) ||
      job.steps.some((step) => keyed(step.secrets) || stepRuns(model, step, job.cwd ?? facts.cwd).paid !== null),
  );
}

/** Stands for a `${{ … }}` expression in a command: a glob's `*` when its words are matched against files. */
const EXPRESSION_MARK = '\u0001';
const MAX_SCRIPT_DEPTH = 8;
/** Runner options whose value chooses the tests that run (not those left out: `--exclude 'test/evals/**'` runs the free suite). */
const CHOOSING_OPTIONS = new Set(['config', 'c', 'project', 'selectProjects', 'dir', 'root', 'r', 'spec', 'testPathPattern', 'testPathPatterns', 'testMatch', 'workspace', 'file']);

interface Leaf {
  argv: string[];
  dir: string;
  /** The package scripts followed to reach it, outermost first. */
  scripts: string[];
}

/**
 * What a step's `run:` reaches: the package scripts it names are followed
 * (`npm test`, `pnpm run evals`, `yarn test:e2e`), and each test-runner
 * command is free or paid by the test files its arguments name, the paid
 * words of its script names and options (`test:e2e`, `--project evals`).
 * A runner run with nothing that says paid runs the free suite.
 */
export function stepRuns(model: RepoModel, step: WorkflowStepFact, cwd: string | null): StepRuns {
  if (step.run === null) return { free: null, paid: null };
  const dir = normalizeDir(step.cwd ?? cwd ?? '');
  if (dir === null) return { free: null, paid: null };
  let free: string | null = null;
  let paid: string | null = null;
  for (const leaf of leaves(model, dir, commandsOf(step.run.text, EXPRESSION_MARK), [], new Set())) {
    const verdict = classify(model, leaf);
    if (verdict === 'paid') paid ??= describe(leaf);
    else if (verdict === 'free') free ??= describe(leaf);
  }
  return { free: paid === null ? free : null, paid };
}

function describe(leaf: Leaf): string {
  const command = leaf.argv.join(' ').replaceAll(EXPRESSION_MARK, '${{…}}');
  return leaf.scripts.length === 0 ? `\`${command}\`` : `\`${leaf.scripts.join('` → `')}\` → \`${command}\``;
}

function leaves(model: RepoModel, start: string, commands: string[][], chain: readonly string[], seen: Set<string>): Leaf[] {
  const out: Leaf[] = [];
  let dir = start;
  for (const argv of commands) {
    if (argv[0] === 'cd') {
      const target = argv[1] === undefined || argv[1].includes(EXPRESSION_MARK) ? null : normalizeDir(posix.join(dir, argv[1]));
      if (target !== null) dir = target;
      continue;
    }
    const scripts = scriptsAt(model, dir);
    const script = scriptOf(argv, scripts);
    const key = `${dir}:${script}`;
    const body = script === null ? undefined : scripts[script];
    if (script !== null && body !== undefined && !seen.has(key) && chain.length < MAX_SCRIPT_DEPTH) {
      seen.add(key);
      out.push(...leaves(model, dir, commandsOf(body, EXPRESSION_MARK), [...chain, script], seen));
      continue;
    }
    out.push({ argv, dir, scripts: [...chain] });
  }
  return out;
}

/** `npm test`, `npm run x`, `pnpm x`, `yarn workspace`-less `yarn x`, `bun run x`: the script named, when the package has it. */
function scriptOf(argv: readonly string[], scripts: Readonly<Record<string, string>>): string | null {
  const program = basename(argv[0] ?? '');
  if (!PACKAGE_RUNNERS.has(program)) return null;
  const words = argv.slice(1).filter((word) => !word.startsWith('-'));
  const [sub, name] = words;
  if (sub === undefined) return null;
  if (sub === 'run' || sub === 'run-script') return name ?? null;
  if (sub === 'test' || sub === 't') return program === 'bun' ? null : 'test';
  return program !== 'npm' && sub in scripts ? sub : null;
}

function scriptsAt(model: RepoModel, dir: string): Readonly<Record<string, string>> {
  const file = dir === '' ? 'package.json' : `${dir}/package.json`;
  if (!model.fileSet.has(file)) return {};
  const parsed: unknown = parseJsonc(model.text(file) ?? '');
  if (typeof parsed !== 'object' || parsed === null || !('scripts' in parsed)) return {};
  const scripts: unknown = parsed.scripts;
  if (typeof scripts !== 'object' || scripts === null) return {};
  return Object.fromEntries(Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function classify(model: RepoModel, leaf: Leaf): 'free' | 'paid' | 'neither' {
  const [program = '', sub] = leaf.argv;
  const wrapped = PACKAGE_RUNNERS.has(basename(program)) ? leaf.argv.slice(sub === 'exec' || sub === 'dlx' || sub === 'x' ? 2 : 1) : null;
  const started = startRunner(leaf.argv) ?? (wrapped === null ? null : startRunner(wrapped));
  if (started === null) return 'neither';
  const words = leaf.scripts.flatMap(nameWords);
  if (words.some((word) => PAID_SUITE_WORD.test(word))) return 'paid';
  const invocation = parseArguments(leaf.scripts.at(-1) ?? '', started.runner, started.args);
  const optionWords = [...invocation.options.entries()].filter(([name]) => CHOOSING_OPTIONS.has(name)).flatMap(([, values]) => values.flatMap(nameWords));
  if (optionWords.some((word) => PAID_SUITE_WORD.test(word))) return 'paid';
  let named = 'none';
  for (const positional of invocation.positionals) {
    const hit = filesNamed(model, leaf.dir, positional);
    if (hit.paid) return 'paid';
    if (hit.free) named = 'free';
    else if (named === 'none') named = 'unknown';
  }
  // A suite named like a service's (`test:integration`), or a filter that names no test file: not known to be the free suite.
  if ([...words, ...optionWords].some((word) => WEAK_PAID_SUITE_WORD.test(word)) || named === 'unknown') return 'neither';
  return 'free';
}

function nameWords(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
}

/**
 * The test files a runner's positional names: a path, a glob (an expression
 * counts as `*`), a directory, or, as vitest, jest and bun read it, a
 * substring of their paths.
 */
function filesNamed(model: RepoModel, dir: string, positional: string): { free: boolean; paid: boolean } {
  const word = positional.replace(/^\.\//, '').replaceAll(EXPRESSION_MARK, '*');
  if (word === '' || word === '*') return { free: false, paid: false };
  const path = dir === '' ? word : `${dir}/${word}`;
  const tests = model.testFiles();
  const matches = /[*?[{]/.test(path) ? model.matching([path]) : tests.filter((file) => file === path || file.startsWith(`${path.replace(/\/$/, '')}/`) || file.includes(word));
  const testSet = model.testFileSet();
  const hits = matches.filter((file) => testSet.has(file));
  return { free: hits.some((file) => !isPaidTest(model, file)), paid: hits.some((file) => isPaidTest(model, file)) };
}

function normalizeDir(raw: string): string | null {
  const path = raw.replace(/^\$\{\{\s*github\.workspace\s*\}\}(?=\/|$)/, '.');
  if (path.includes('${{') || path.startsWith('/')) return null;
  const normal = posix.normalize(path === '' ? '.' : path).replace(/\/+$/, '');
  if (/^\.\.(\/|$)/.test(normal)) return null;
  return normal === '.' ? '' : normal;
}

/** The associations GitHub gives a pull request's author. */
export const AUTHOR_ASSOCIATIONS = ['OWNER', 'MEMBER', 'COLLABORATOR', 'CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'FIRST_TIMER', 'MANNEQUIN', 'NONE'] as const;

const TRUST_FIELD = 'github.event.pull_request.author_association';
/** Fields a condition may mistake for the author's trust: another object's association, the actor, what the head says of itself. */
const OTHER_TRUST_FIELDS = /(?:^|\.)author_association$|^github\.(?:actor|triggering_actor|repository_owner)$|^github\.event\.(?:pull_request\.(?:user|head|base)|sender)\./;
/** A status function other than success(): the job runs when a job it needs was skipped. */
const RUNS_AFTER_SKIP = new Set(['always', 'failure', 'cancelled']);

/** How a condition restricts a pull request's run. */
export type Gate =
  | { gated: true }
  | { gated: false; why: 'none' | 'wrongField' | 'untrustedAssociation'; field?: string; admits?: string }
  /** A condition that depends on values not known here (a job's output, a label): it may or may not keep untrusted authors out. */
  | { gated: false; why: 'unproven'; reads: string[] }
  | { gated: false; why: 'unparsable'; error: string };

export interface ParsedCondition {
  fact: ConditionFact;
  parsed: ParsedExpression | { error: string } | 'always';
}

export function parseCondition(fact: ConditionFact | null): ParsedCondition | null {
  if (fact === null) return null;
  const expression = conditionExpression(fact.text);
  return { fact, parsed: expression === null ? 'always' : parseExpression(expression) };
}

/** A job's output as written, by job id and output name (lower case, as expressions read them); null when unknown. */
export type JobOutputs = (job: string, name: string) => string | null;

const OUTPUT_PATH = /^needs\.([^.]+)\.outputs\.([^.]+)$/;
const MAX_OUTPUT_DEPTH = 4;
const HEAD_REPOSITORY = 'github.event.pull_request.head.repo.full_name';
const HEAD_IS_FORK = 'github.event.pull_request.head.repo.fork';
const REPOSITORY = 'github.repository';
/** The associations that never come with write access: such an author's pull request comes from a fork. */
const WITHOUT_WRITE_ACCESS = new Set(['CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'FIRST_TIMER', 'MANNEQUIN', 'NONE']);

/**
 * The expression as it reads for an author who cannot push to the
 * repository: the pull request's head is a fork, so its repository is not
 * this one (`head.repo.full_name == github.repository` is false) and
 * `head.repo.fork` is true.
 */
function fromFork(parsed: ParsedExpression): ParsedExpression {
  const isPath = (node: { kind: string; path?: string }, path: string): boolean => node.kind === 'path' && node.path === path;
  return substitute(parsed, (node) => {
    if (isPath(node, HEAD_IS_FORK)) return { kind: 'literal', value: true };
    if (node.kind === 'binary' && (node.op === '==' || node.op === '!=')) {
      const { left, right } = node;
      if ((isPath(left, HEAD_REPOSITORY) && isPath(right, REPOSITORY)) || (isPath(left, REPOSITORY) && isPath(right, HEAD_REPOSITORY))) return { kind: 'literal', value: node.op === '!=' };
    }
    return null;
  });
}

/**
 * What a path reads for a pull request on `event` by an author of
 * `association`: the association and the event; a job's output whose value
 * is a literal or one `${{ … }}` of what is known here, evaluated the same
 * way; everything else unknown.
 */
function resolverFor(association: string, event: string, outputs: JobOutputs | undefined, depth: number): Resolve {
  return (path) => {
    if (path === TRUST_FIELD) return association;
    if (path === 'github.event_name') return event;
    const output = OUTPUT_PATH.exec(path);
    if (output === null || outputs === undefined || depth >= MAX_OUTPUT_DEPTH) return UNKNOWN_VALUE;
    const text = outputs(output[1] ?? '', output[2] ?? '');
    return text === null ? UNKNOWN_VALUE : outputValue(text, association, event, outputs, depth + 1);
  };
}

/** An output's value: text with no `${{` is itself; one `${{ … }}` that is all of it is evaluated; text mixed with expressions is unknown. */
function outputValue(text: string, association: string, event: string, outputs: JobOutputs, depth: number): ExprValue {
  const trimmed = text.trim();
  if (!trimmed.includes('${{')) return trimmed;
  const expression = conditionExpression(trimmed);
  const parsed = expression === null ? null : parseExpression(expression);
  if (parsed === null || 'error' in parsed) return UNKNOWN_VALUE;
  return asText(evaluate(WITHOUT_WRITE_ACCESS.has(association) ? fromFork(parsed) : parsed, resolverFor(association, event, outputs, depth)));
}

/**
 * Whether `condition` is false on `event` for every author whose association
 * is not trusted: evaluated with the event and the association known, the
 * head a fork for an author who cannot push (a same-repository head is a
 * trust condition), the outputs of the jobs it reads evaluated where they
 * are literal, and every other value unknown.
 */
export function gateOf(condition: ParsedCondition | null, event: string, trusted: readonly string[], outputs?: JobOutputs): Gate {
  if (condition === null || condition.parsed === 'always') return { gated: false, why: 'none' };
  const parsed = condition.parsed;
  if ('error' in parsed) return { gated: false, why: 'unparsable', error: parsed.error };
  const trustedSet = new Set(trusted.map((value) => value.toUpperCase()));
  const untrusted = AUTHOR_ASSOCIATIONS.filter((value) => !trustedSet.has(value));
  const forked = fromFork(parsed);
  const verdicts = untrusted.map((association) => ({ association, value: truth(evaluate(WITHOUT_WRITE_ACCESS.has(association) ? forked : parsed, resolverFor(association, event, outputs, 0))) }));
  const admits = verdicts.find((verdict) => verdict.value === true)?.association;
  if (admits === undefined && verdicts.every((verdict) => verdict.value === false)) return { gated: true };
  const field = parsed.paths.find((path) => OTHER_TRUST_FIELDS.test(path));
  if (field !== undefined && !parsed.paths.includes(TRUST_FIELD)) return { gated: false, why: 'wrongField', field };
  if (admits !== undefined) return parsed.paths.includes(TRUST_FIELD) ? { gated: false, why: 'untrustedAssociation', admits } : { gated: false, why: 'none' };
  return { gated: false, why: 'unproven', reads: [...new Set(parsed.paths.filter((path) => path !== TRUST_FIELD && path !== 'github.event_name'))] };
}

/** A job whose condition calls always(), failure() or cancelled() runs even when a job it needs was skipped. */
export function runsAfterSkip(condition: ParsedCondition | null): boolean {
  if (condition === null) return false;
  if (condition.parsed === 'always') return false;
  if ('error' in condition.parsed) return /\b(?:always|failure|cancelled)\s*\(/i.test(condition.fact.text);
  return condition.parsed.calls.some((name) => RUNS_AFTER_SKIP.has(name));
}
