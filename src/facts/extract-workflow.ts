import { createHash } from 'node:crypto';
import type { Document, LineCounter, Pair, YAMLMap } from 'yaml';
import { loadYaml } from '../parse/yaml.js';
import type { Loc } from '../types.js';
import { compareText } from '../util/compare.js';
import { EXPRESSION } from './shell.js';
import type { ConditionFact, SecretFact, WorkflowFacts, WorkflowJobFact, WorkflowStepFact } from './types.js';

/** GitHub only runs workflows directly in this directory, never in subdirectories. */
export const WORKFLOW_FILE = /^\.github\/workflows\/[^/]+\.ya?ml$/;

const NAMED_SECRET = /\bsecrets\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_-]*)|\[\s*'([^']+)'\s*\]|\[\s*"([^"]+)"\s*\])/g;
/** `secrets[matrix.key]`, `toJSON(secrets)`: a secret (or every one) chosen at run time. */
const COMPUTED_SECRET = /\bsecrets\s*\[\s*[^'"\s]|\bsecrets\b(?!\s*[.[])/;

const MAX_DEPTH = 64;
const START: Loc = { line: 1, column: 1, endLine: 1, endColumn: 1 };

/**
 * The facts of one workflow file: its triggers, and per job and step the
 * conditions, commands, actions and secrets, each with its position (from
 * the parser's node ranges). A part that is not the shape GitHub runs is a
 * shape error, not a silent omission.
 */
export function extractWorkflowFacts(source: string): WorkflowFacts {
  const { LineCounter: Counter, parseDocument } = loadYaml();
  const lines = new Counter();
  const doc = parseDocument(source, { lineCounter: lines });
  const facts: WorkflowFacts = { kind: 'workflow', parseErrors: [], shapeErrors: [], events: [], secrets: [], cwd: null, jobs: [] };
  const loc = locator(lines);
  if (doc.errors.length > 0) {
    facts.parseErrors = doc.errors.map((error) => ({ message: error.message.split('\n')[0] ?? error.message, loc: error.pos ? loc(error.pos) : START }));
    return facts;
  }
  new Reader(doc, loc, facts).read();
  return facts;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** SHA-256 of the value as JSON with every object's keys sorted; null past MAX_DEPTH levels. */
function digestOf(value: unknown): string | null {
  const sorted = (node: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new RangeError('nested too deeply');
    if (Array.isArray(node)) return node.map((item) => sorted(item, depth + 1));
    if (node instanceof Map) return sorted(Object.fromEntries([...node].map(([key, item]) => [String(key), item])), depth);
    if (!isObject(node)) return node ?? null;
    return Object.fromEntries(Object.keys(node).sort(compareText).map((key) => [key, sorted(node[key], depth + 1)]));
  };
  try {
    return createHash('sha256').update(JSON.stringify(sorted(value, 0))).digest('hex');
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

type Locate = (range: readonly number[] | null | undefined) => Loc;

function locator(lines: LineCounter): Locate {
  return (range) => {
    if (!range) return START;
    const start = lines.linePos(range[0] ?? 0);
    const end = lines.linePos(range[1] ?? range[0] ?? 0);
    return { line: start.line, column: start.col, endLine: end.line, endColumn: end.col };
  };
}

class Reader {
  private readonly yaml = loadYaml();
  /** While an aliased job (`second: *job`) is read: its alias, where everything in it is reported. */
  private aliasLoc: Loc | null = null;

  constructor(
    private readonly doc: Document,
    private readonly locate: Locate,
    private readonly facts: WorkflowFacts,
  ) {}

  private loc(range: readonly number[] | null | undefined): Loc {
    return this.aliasLoc ?? this.locate(range);
  }

  read(): void {
    const root = this.doc.contents;
    if (!this.yaml.isMap(root)) {
      this.shape(root, 'the workflow is not a mapping');
      return;
    }
    // Under a `%YAML 1.1` directive the key `on` reads as the boolean true.
    const on = this.pair(root, 'on') ?? this.pair(root, true);
    if (on) this.events(on);
    this.facts.secrets = this.secretsIn(this.get(root, 'env'), null, true);
    this.facts.cwd = this.defaultCwd(root, 'the workflow');
    const jobs = this.get(root, 'jobs');
    if (!this.yaml.isMap(jobs)) {
      this.shape(jobs ?? root, 'jobs is not a mapping');
      return;
    }
    for (const pair of jobs.items) {
      const id = this.scalar(pair.key);
      if (id === null) continue;
      this.job(id, pair);
    }
    this.digests();
  }

  /**
   * Each job's digest: its definition with the workflow's own settings (triggers, env, defaults,
   * permissions), as plain data with keys sorted, so that a comment, a reordering or a reformatting
   * changes nothing and any change of what the job is does. Null when the plain data cannot be built
   * (an alias expanding past the parser's limit, nesting too deep).
   */
  private digests(): void {
    let plain: unknown;
    try {
      plain = this.doc.toJS({ maxAliasCount: 100 });
    } catch {
      return;
    }
    if (!isObject(plain) || !isObject(plain['jobs'])) return;
    const { jobs, ...workflow } = plain;
    for (const job of this.facts.jobs) job.digest = digestOf([workflow, jobs[job.id]]);
  }

  private events(on: Pair): void {
    const value = this.deref(on.value);
    const add = (item: unknown): void => {
      const node = this.deref(item);
      const name = this.scalar(node);
      if (name !== null && this.yaml.isNode(node)) this.facts.events.push({ name, loc: this.loc(node.range) });
    };
    if (this.yaml.isScalar(value)) add(value);
    else if (this.yaml.isSeq(value)) value.items.forEach(add);
    else if (this.yaml.isMap(value)) value.items.forEach((pair) => add(pair.key));
  }

  private job(id: string, pair: Pair): void {
    const keyLoc = this.yaml.isNode(pair.key) ? this.loc(pair.key.range) : START;
    this.aliasLoc = this.yaml.isAlias(pair.value) ? this.locate(pair.value.range) : null;
    try {
      this.jobBody(id, pair, keyLoc);
    } finally {
      this.aliasLoc = null;
    }
  }

  private jobBody(id: string, pair: Pair, keyLoc: Loc): void {
    const definition = this.deref(pair.value);
    if (!this.yaml.isMap(definition)) {
      this.shape(definition ?? pair.key, `job ${id} is not a mapping`);
      return;
    }
    const uses = this.get(definition, 'uses');
    const secretsValue = this.get(definition, 'secrets');
    const job: WorkflowJobFact = {
      id,
      name: this.scalar(this.get(definition, 'name')),
      loc: keyLoc,
      if: this.condition(this.get(definition, 'if')),
      needs: this.needs(this.get(definition, 'needs')),
      uses: this.located(uses),
      inheritSecrets: this.scalar(secretsValue) === 'inherit',
      cwd: this.defaultCwd(definition, `job ${id}`),
      secrets: definition.items.filter((item) => this.scalar(item.key) !== 'steps').flatMap((item) => this.secretsIn(item.value, null, this.envKey(item))),
      steps: [],
      outputs: this.outputs(this.get(definition, 'outputs')),
      digest: null,
    };
    const steps = this.get(definition, 'steps');
    if (steps !== undefined && steps !== null) {
      if (!this.yaml.isSeq(steps)) this.shape(steps, `jobs.${id}.steps is not a list`);
      else steps.items.forEach((item, index) => {
        const step = this.step(this.deref(item), index);
        if (step) job.steps.push(step);
        else this.shape(item, `jobs.${id}.steps[${index}] is not a mapping`);
      });
    }
    this.facts.jobs.push(job);
  }

  private step(node: unknown, index: number): WorkflowStepFact | null {
    if (!this.yaml.isMap(node)) return null;
    const run = this.get(node, 'run');
    const runText = this.scalar(run);
    const inputs = this.get(node, 'with');
    const withInputs: WorkflowStepFact['with'] = [];
    if (this.yaml.isMap(inputs)) {
      for (const pair of inputs.items) {
        const key = this.scalar(pair.key);
        const value = this.scalar(pair.value);
        if (key !== null && value !== null && this.yaml.isNode(pair.value)) withInputs.push({ key, value, loc: this.loc(pair.value.range) });
      }
    }
    const first = node.items[0]?.key;
    // From the step's start (a flow mapping's `{`) to the end of its first key.
    const start = node.range?.[0] ?? 0;
    const stepLoc = this.yaml.isNode(first) && first.range ? this.loc([start, first.range[1]]) : this.loc(node.range);
    return {
      index,
      name: this.scalar(this.get(node, 'name')),
      loc: stepLoc,
      if: this.condition(this.get(node, 'if')),
      run: runText === null || !this.yaml.isNode(run) ? null : { text: runText, loc: this.loc(run.range) },
      uses: this.located(this.get(node, 'uses')),
      with: withInputs,
      cwd: this.scalar(this.get(node, 'working-directory')),
      secrets: node.items.flatMap((item) => this.secretsIn(item.value, null, this.envKey(item))),
    };
  }

  /** Under `env:` (and `with:`, `secrets:`), a mapping's keys name the variables its values set. */
  private envKey(item: Pair): boolean {
    const key = this.scalar(item.key);
    return key === 'env' || key === 'with' || key === 'secrets';
  }

  /** Every secret referenced in the scalars under `node`; `keyed`: the node is a mapping of variable → value. */
  private secretsIn(value: unknown, key: string | null, keyed = false, depth = 0): SecretFact[] {
    const node = this.deref(value);
    // An alias can name a node that contains it: the walk stops where no hand-written workflow goes.
    if (depth > MAX_DEPTH) return [];
    if (this.yaml.isMap(node)) return node.items.flatMap((pair) => this.secretsIn(pair.value, keyed ? this.scalar(pair.key) : key, this.envKey(pair), depth + 1));
    if (this.yaml.isSeq(node)) return node.items.flatMap((item) => this.secretsIn(item, key, false, depth + 1));
    if (!this.yaml.isScalar(node) || typeof node.value !== 'string') return [];
    const out: SecretFact[] = [];
    const loc = this.loc(node.range);
    for (const [expression] of node.value.matchAll(EXPRESSION)) {
      for (const match of expression.matchAll(NAMED_SECRET)) {
        const name = match[1] ?? match[2] ?? match[3];
        if (name !== undefined) out.push({ name, key, loc });
      }
      if (COMPUTED_SECRET.test(expression.replace(NAMED_SECRET, ''))) out.push({ name: null, key, loc });
    }
    return out;
  }

  private condition(node: unknown): ConditionFact | null {
    if (!this.yaml.isScalar(node) || node.value === null || node.value === undefined) return null;
    return { text: String(node.value), loc: this.loc(node.range) };
  }

  private needs(node: unknown): string[] {
    const one = this.scalar(node);
    if (one !== null) return [one];
    return this.yaml.isSeq(node) ? node.items.map((item) => this.scalar(this.deref(item))).filter((name): name is string => name !== null) : [];
  }

  private defaultCwd(owner: YAMLMap, what: string): string | null {
    const defaults = this.get(owner, 'defaults');
    if (defaults === undefined || defaults === null) return null;
    if (!this.yaml.isMap(defaults)) {
      this.shape(defaults, `defaults of ${what} is not a mapping`);
      return null;
    }
    const run = this.get(defaults, 'run');
    if (run === undefined || run === null) return null;
    if (!this.yaml.isMap(run)) {
      this.shape(run, `defaults.run of ${what} is not a mapping`);
      return null;
    }
    return this.scalar(this.get(run, 'working-directory'));
  }

  /** `outputs:` as written: each scalar value, by name (a value that is not a scalar is left out: it is no string GitHub sets). */
  private outputs(node: unknown): WorkflowJobFact['outputs'] {
    const map = this.deref(node);
    if (!this.yaml.isMap(map)) return [];
    return map.items.flatMap((pair) => {
      const name = this.scalar(pair.key);
      const value = this.located(this.deref(pair.value));
      return name === null || value === null ? [] : [{ name, text: value.value, loc: value.loc }];
    });
  }

  private located(node: unknown): { value: string; loc: Loc } | null {
    const value = this.scalar(node);
    return value === null || !this.yaml.isNode(node) ? null : { value, loc: this.loc(node.range) };
  }

  private pair(map: YAMLMap, key: string | boolean): Pair | undefined {
    return map.items.find((item) => this.yaml.isScalar(item.key) && item.key.value === key);
  }

  private get(map: YAMLMap, key: string): unknown {
    return this.deref(this.pair(map, key)?.value);
  }

  /** An alias (`*defaults`) stands for the node its anchor names. */
  private deref(node: unknown): unknown {
    return this.yaml.isAlias(node) ? node.resolve(this.doc) : node;
  }

  /** Strings as they are; numbers and booleans as YAML wrote them; anything else is absent. */
  private scalar(node: unknown): string | null {
    if (!this.yaml.isScalar(node)) return null;
    const value = node.value;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return null;
  }

  private shape(node: unknown, message: string): void {
    const range = this.yaml.isNode(node) ? node.range : null;
    this.facts.shapeErrors.push({ message, loc: this.loc(range) });
  }
}
