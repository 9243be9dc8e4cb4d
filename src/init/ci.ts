import { posix } from 'node:path';
import { LineCounter, isNode, parseDocument } from 'yaml';
import { EXPRESSION } from '../facts/shell.js';

export { commandsOf } from '../facts/shell.js';

/** One `run:` step of a GitHub Actions job, with what it can see. */
export interface CiStep {
  /** Repo-relative path of the workflow file. */
  workflow: string;
  job: string;
  jobName: string | null;
  step: string | null;
  run: string;
  /** Repo-relative working directory ('' = the root); null when an expression decides it. */
  cwd: string | null;
  /** Secrets the step can read: its env, its job's env, the workflow's env, and its own `run:` text. */
  secrets: string[];
  /** The workflow triggers on `pull_request` or `pull_request_target`. */
  pullRequest: boolean;
  /** The workflow runs on every change (`push`, `pull_request`, `pull_request_target`, `merge_group`), not only by hand or on a schedule. */
  routine: boolean;
  /** 1-based line of the step in the workflow file. */
  line: number;
}

export interface CiReadError {
  file: string;
  message: string;
}

type Mapping = Record<string, unknown>;

/** GitHub only runs workflows directly in this directory, never in subdirectories. */
const WORKFLOW_FILE = /^\.github\/workflows\/[^/]+\.ya?ml$/;
const SECRET_REFERENCE = /\bsecrets\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*'([^']+)'\s*\]|\[\s*"([^"]+)"\s*\])/g;
const WORKSPACE_PREFIX = /^\$\{\{\s*github\.workspace\s*\}\}(?=\/|$)/;

/** A workflow file whose content is not the shape GitHub expects; caught per file. */
class ShapeError extends Error {}

export function readWorkflows(files: readonly string[], text: (file: string) => string | null): { steps: CiStep[]; errors: CiReadError[] } {
  const steps: CiStep[] = [];
  const errors: CiReadError[] = [];
  for (const file of files.filter((path) => WORKFLOW_FILE.test(path)).sort()) {
    const source = text(file);
    if (source === null) {
      errors.push({ file, message: 'the file could not be read' });
      continue;
    }
    try {
      steps.push(...readWorkflow(file, source));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      errors.push({ file, message: message.split('\n')[0] ?? message });
    }
  }
  return { steps, errors };
}

function readWorkflow(file: string, source: string): CiStep[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter });
  const [parseError] = doc.errors;
  if (parseError) throw parseError;
  const workflow = mapping(doc.toJS(), 'the workflow');
  const jobs = mapping(workflow.jobs, 'jobs');
  // Under a `%YAML 1.1` directive the key `on` reads as the boolean true.
  const pullRequest = triggersOnPullRequest(workflow.on ?? workflow.true);
  const routine = triggersOnChange(workflow.on ?? workflow.true);
  const workflowSecrets = secretsIn(workflow.env);
  const workflowCwd = defaultCwd(workflow, 'the workflow');
  const lineOf = (path: readonly (string | number)[]): number | null => {
    const node = doc.getIn(path, true);
    return isNode(node) && node.range ? lineCounter.linePos(node.range[0]).line : null;
  };

  const out: CiStep[] = [];
  for (const [job, value] of Object.entries(jobs)) {
    const definition = mapping(value, `job ${job}`);
    // A job without steps calls a reusable workflow (`uses:`): nothing of it runs here.
    if (definition.steps === undefined) continue;
    if (!Array.isArray(definition.steps)) throw new ShapeError(`jobs.${job}.steps is not a list`);
    const jobSecrets = [...workflowSecrets, ...secretsIn(definition.env)];
    const jobCwd = defaultCwd(definition, `job ${job}`) ?? workflowCwd;
    const jobName = typeof definition.name === 'string' ? definition.name : null;
    definition.steps.forEach((item: unknown, index) => {
      const step = mapping(item, `jobs.${job}.steps[${index}]`);
      const run = scalarText(step.run);
      if (run === null) return;
      const cwd = scalarText(step['working-directory']) ?? jobCwd;
      out.push({
        workflow: file,
        job,
        jobName,
        step: scalarText(step.name),
        run,
        cwd: cwd === null ? '' : normalizeCwd(cwd),
        secrets: [...new Set([...jobSecrets, ...secretsIn(step.env), ...secretsIn(run)])].sort(),
        pullRequest,
        routine,
        line: lineOf(['jobs', job, 'steps', index]) ?? lineOf(['jobs', job]) ?? 1,
      });
    });
  }
  return out;
}

function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapping(value: unknown, what: string): Mapping {
  if (!isMapping(value)) throw new ShapeError(`${what} is not a mapping`);
  return value;
}

/** Strings as they are; numbers and booleans as YAML wrote them (`name: 2`); anything else is absent. */
function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function defaultCwd(owner: Mapping, what: string): string | null {
  const defaults = mapping(owner.defaults ?? {}, `defaults of ${what}`);
  return scalarText(mapping(defaults.run ?? {}, `defaults.run of ${what}`)['working-directory']);
}

function eventsOf(on: unknown): unknown[] {
  return typeof on === 'string' ? [on] : Array.isArray(on) ? on : isMapping(on) ? Object.keys(on) : [];
}

function triggersOnPullRequest(on: unknown): boolean {
  return eventsOf(on).some((event) => event === 'pull_request' || event === 'pull_request_target');
}

function triggersOnChange(on: unknown): boolean {
  return eventsOf(on).some((event) => event === 'push' || event === 'pull_request' || event === 'pull_request_target' || event === 'merge_group');
}

/** Secret names in the `${{ … }}` expressions of a value (an env mapping, an env expression, a run text). */
function secretsIn(value: unknown): string[] {
  if (isMapping(value)) return Object.values(value).flatMap(secretsIn);
  if (typeof value !== 'string') return [];
  const names: string[] = [];
  for (const [expression] of value.matchAll(EXPRESSION)) {
    for (const match of expression.matchAll(SECRET_REFERENCE)) {
      const name = match[1] ?? match[2] ?? match[3];
      if (name !== undefined) names.push(name);
    }
  }
  return names;
}

/** `./pkg/` → `pkg`, `${{ github.workspace }}/pkg` → `pkg`; null when the directory is not known statically or leaves the repository. */
function normalizeCwd(raw: string): string | null {
  const path = raw.replace(WORKSPACE_PREFIX, '.');
  if (path.includes('${{') || path.startsWith('/')) return null;
  const normal = posix.normalize(path).replace(/\/+$/, '');
  if (/^\.\.(\/|$)/.test(normal)) return null;
  return normal === '.' ? '' : normal;
}
