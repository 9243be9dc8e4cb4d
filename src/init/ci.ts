import { posix } from 'node:path';
import { extractWorkflowFacts, WORKFLOW_FILE } from '../facts/extract-workflow.js';
import type { WorkflowFacts } from '../facts/types.js';

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

const WORKSPACE_PREFIX = /^\$\{\{\s*github\.workspace\s*\}\}(?=\/|$)/;
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);
const CHANGE_EVENTS = new Set(['push', 'pull_request', 'pull_request_target', 'merge_group']);

/** The `run:` steps of the repository's workflows, read from the same workflow facts as the paid-ci-lanes rule. */
export function readWorkflows(files: readonly string[], text: (file: string) => string | null): { steps: CiStep[]; errors: CiReadError[] } {
  const steps: CiStep[] = [];
  const errors: CiReadError[] = [];
  for (const file of files.filter((path) => WORKFLOW_FILE.test(path)).sort()) {
    const source = text(file);
    if (source === null) {
      errors.push({ file, message: 'the file could not be read' });
      continue;
    }
    const facts = extractWorkflowFacts(source);
    const [problem] = [...facts.parseErrors, ...facts.shapeErrors];
    // A file GitHub would not run as written tells nothing about the lanes: one error, no steps.
    if (problem !== undefined) errors.push({ file, message: problem.message });
    else steps.push(...stepsOf(file, facts));
  }
  return { steps, errors };
}

function stepsOf(file: string, facts: WorkflowFacts): CiStep[] {
  const events = facts.events.map((event) => event.name);
  const pullRequest = events.some((event) => PULL_REQUEST_EVENTS.has(event));
  const routine = events.some((event) => CHANGE_EVENTS.has(event));
  const names = (secrets: readonly { name: string | null }[]): string[] => secrets.flatMap((secret) => (secret.name === null ? [] : [secret.name]));
  return facts.jobs.flatMap((job) =>
    job.steps.flatMap((step): CiStep[] => {
      if (step.run === null) return [];
      const cwd = step.cwd ?? job.cwd ?? facts.cwd;
      return [
        {
          workflow: file,
          job: job.id,
          jobName: job.name,
          step: step.name,
          run: step.run.text,
          cwd: cwd === null ? '' : normalizeCwd(cwd),
          secrets: [...new Set([...names(facts.secrets), ...names(job.secrets), ...names(step.secrets)])].sort(),
          pullRequest,
          routine,
          line: step.loc.line,
        },
      ];
    }),
  );
}

/** `./pkg/` → `pkg`, `${{ github.workspace }}/pkg` → `pkg`; null when the directory is not known statically or leaves the repository. */
function normalizeCwd(raw: string): string | null {
  const path = raw.replace(WORKSPACE_PREFIX, '.');
  if (path.includes('${{') || path.startsWith('/')) return null;
  const normal = posix.normalize(path).replace(/\/+$/, '');
  if (/^\.\.(\/|$)/.test(normal)) return null;
  return normal === '.' ? '' : normal;
}
