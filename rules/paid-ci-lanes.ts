import * as z from 'zod';
import type { SecretFact, WorkflowFacts, WorkflowJobFact, WorkflowStepFact } from '../src/facts/types.js';
import type { RepoModel } from '../src/model/model.js';
import { AUTHOR_ASSOCIATIONS, gateOf, holdsModelKey, modelKeyNames, parseCondition, runsAfterSkip, stepRuns, type Gate, type JobOutputs, type ParsedCondition, type StepRuns } from '../src/analysis/ci-lanes.js';
import { compileGlobs } from '../src/util/glob.js';
import { createRule, type MessageKind, type RuleFinding } from '../src/rule.js';
import type { Loc, Related } from '../src/types.js';

const messages = {
  secretInFreeLane: { description: 'A step that runs the free suite receives a model API key (from the workflow, its job or itself).' },
  untrustedPaidJob: { description: 'On a pull-request event, a job that receives a model API key has no condition restricting it to trusted authors (author_association), itself or through a job it needs.' },
  untrustedPaidStep: { description: 'On a pull-request event, a step that receives a model API key or runs paid tests has no condition restricting it to trusted authors, in its own `if:` or its job\'s.' },
  trustOnWrongField: { description: 'The condition meant to restrict a paid job or step to trusted authors tests another field (the actor, the head branch, another object\'s association) instead of github.event.pull_request.author_association.' },
  untrustedAssociation: { description: 'The author_association condition of a paid job or step still lets an untrusted author through (a CONTRIBUTOR, a first-time contributor, NONE).' },
  prTargetRunsPrCode: { description: 'A pull_request_target workflow checks out the pull request\'s head in a job that receives a model API key or runs paid tests: the pull request\'s code runs with the key, whatever the condition.' },
  unparsableWorkflow: { description: 'A workflow file does not parse as YAML, or a part of it is not the shape GitHub runs: nothing in that part was checked.' },
  unevaluableExpression: { description: 'A condition or a secret reference of a job that the rule must judge cannot be evaluated statically (a syntax it does not read, a secret chosen by a matrix value): reported once, at the node.' },
  unprovenCondition: {
    description: 'On a pull-request event, a job or step that receives a model API key or runs paid tests has a condition that depends on values tripwire cannot read (a job\'s output, a label, an input): it may keep untrusted authors out or not.',
    heuristic: true,
  },
  unseenReusableWorkflow: { description: 'On a pull-request event, a job without a trust condition passes secrets (`secrets: inherit`) to a reusable workflow in another repository, which the rule cannot read.' },
} satisfies Record<string, MessageKind>;

export type MessageIds = keyof typeof messages;

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);
const TRUST_EXAMPLE = "contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)";

const options = z.strictObject({
  trustedAssociations: z
    .array(z.enum(AUTHOR_ASSOCIATIONS))
    .min(1)
    .default(['OWNER', 'MEMBER', 'COLLABORATOR'])
    .describe('The pull-request author associations that may reach a paid job or step.'),
  secrets: z.array(z.string().min(1)).default([]).describe('Secret or variable names that hold a model API key, added to the built-in key variables and paid.env.'),
  skip: z
    .array(
      z.strictObject({
        workflow: z.string().min(1).describe('A workflow file (or glob) the rule does not check, relative to the repository root.'),
        reason: z.string().min(1).describe('Why it is not checked; required.'),
      }),
    )
    .default([])
    .describe('Workflows the rule skips, each with its reason.'),
});

type Options = z.output<typeof options>;

export default createRule({
  id: 'paid-ci-lanes',
  meta: {
    description: 'In CI workflows, the free suite receives no model API key, and on pull-request events every job or step that receives one or runs paid tests is restricted to trusted authors.',
    languages: ['yaml/yaml'],
    recommended: true,
    messages,
  },
  options,
  check(model, opts) {
    const skipped = compileGlobs(opts.skip.map((entry) => entry.workflow));
    const keys = modelKeyNames(model, opts.secrets);
    const findings: RuleFinding<MessageIds>[] = [];
    for (const file of model.workflowFiles()) {
      if (skipped(file)) continue;
      const facts = model.workflowFacts(file);
      if (facts === null) continue;
      findings.push(...new WorkflowCheck(model, file, facts, keys, opts).run());
    }
    return findings;
  },
});

type Finding = RuleFinding<MessageIds>;

interface JobView {
  job: WorkflowJobFact;
  condition: ParsedCondition | null;
  /** Model keys the job's every step receives: from the workflow's env and the job's own. */
  keys: SecretFact[];
  steps: { step: WorkflowStepFact; condition: ParsedCondition | null; keys: SecretFact[]; runs: StepRuns }[];
}

class WorkflowCheck {
  private readonly findings: Finding[] = [];
  private readonly reported = new Set<string>();
  /** Keys already reported as reaching the free suite: their fix (move the key) is not asked twice. */
  private readonly inFreeLane = new Set<SecretFact>();
  private readonly views: Map<string, JobView>;

  constructor(
    private readonly model: RepoModel,
    private readonly file: string,
    private readonly facts: WorkflowFacts,
    private readonly keys: ReadonlySet<string>,
    private readonly options: Options,
  ) {
    const workflowKeys = facts.secrets.filter((secret) => this.isKey(secret) !== false);
    this.views = new Map(
      facts.jobs.map((job) => [
        job.id,
        {
          job,
          condition: parseCondition(job.if),
          keys: [...workflowKeys, ...job.secrets.filter((secret) => this.isKey(secret) !== false)],
          steps: job.steps.map((step) => ({ step, condition: parseCondition(step.if), keys: step.secrets.filter((secret) => this.isKey(secret) !== false), runs: stepRuns(model, step, job.cwd ?? facts.cwd) })),
        },
      ]),
    );
  }

  run(): Finding[] {
    const [parseError] = this.facts.parseErrors;
    if (parseError !== undefined) {
      this.report('unparsableWorkflow', parseError.loc, `${this.file} does not parse as YAML (${parseError.message}): none of its jobs was checked for model keys or trust conditions. Fix the YAML.`);
      return this.findings;
    }
    for (const problem of this.facts.shapeErrors) {
      this.report('unparsableWorkflow', problem.loc, `${this.file}: ${problem.message}, so that part was not checked for model keys or trust conditions. Give it the shape GitHub runs.`);
    }
    for (const view of this.views.values()) this.freeLane(view);
    const events = this.facts.events.map((event) => event.name).filter((name) => PULL_REQUEST_EVENTS.has(name));
    if (events.length > 0) for (const view of this.views.values()) this.pullRequestLane(view, events);
    return this.findings;
  }

  /** True for a model key, false for another secret, null when the name is computed and the key it sets says nothing. */
  private isKey(secret: SecretFact): boolean | null {
    return holdsModelKey(secret, this.keys);
  }

  private freeLane(view: JobView): void {
    for (const { step, keys, runs } of view.steps) {
      if (runs.free === null) continue;
      for (const secret of [...view.keys, ...keys]) {
        const where = `job ${view.job.id}, ${this.file}:${step.loc.line}`;
        if (this.isKey(secret) === null) {
          this.report('unevaluableExpression', secret.loc, `a secret chosen at run time reaches the free suite (${runs.free}, ${where}): whether it is a model key cannot be read statically. Pass no secret to the free suite, or name the secret.`);
        } else {
          this.inFreeLane.add(secret);
          this.report('secretInFreeLane', secret.loc, `the free suite (${runs.free}, ${where}) receives ${secretLabel(secret)}: it runs on every change, for every author, so a free test (or a paid test that reads the key instead of skipping) spends money and can expose the key. Move the key to the paid job, and gate that job on the author's association.`);
        }
      }
    }
  }

  private pullRequestLane(view: JobView, events: readonly string[]): void {
    const { job } = view;
    if (events.includes('pull_request_target') && this.headCheckout(view)) return;
    const jobGate = this.jobGate(view, events, new Set());
    if (jobGate.gated) return;
    const where = `${this.file}:${job.loc.line}`;
    const keyed = view.keys.filter((secret) => this.isKey(secret) === true && !this.inFreeLane.has(secret));
    if (keyed.length > 0 || this.callsWithKeys(view)) {
      const what = keyed.length > 0 ? `receives ${secretLabel(keyed[0] ?? view.keys[0])}` : `passes its secrets to ${job.uses?.value ?? 'a reusable workflow'} (which uses a model key)`;
      this.untrusted(jobGate, 'untrustedPaidJob', job.if?.loc ?? job.loc, `job ${job.id} (${where}) ${what} on ${events.join('/')}`, `Add \`if: ${TRUST_EXAMPLE}\` to the job (or make it need a job that has it).`);
      return;
    }
    const computed = view.keys.find((secret) => this.isKey(secret) === null);
    if (computed !== undefined) {
      this.report('unevaluableExpression', computed.loc, `job ${job.id} (${where}) runs on ${events.join('/')} with no trust condition and receives a secret chosen at run time: whether it is a model key cannot be read statically. Name the secret, or restrict the job to trusted authors.`);
      return;
    }
    if (job.uses !== null && job.inheritSecrets && !job.uses.value.startsWith('./')) {
      this.report('unseenReusableWorkflow', job.uses.loc, `job ${job.id} (${where}) runs on ${events.join('/')} with no trust condition and passes every secret to ${job.uses.value}, which tripwire cannot read: if it uses a model key, any pull request spends it. Pass only the secrets it needs, or restrict the job to trusted authors.`);
      return;
    }
    const open: { step: WorkflowStepFact; gate: Gate; loc: Loc; what: string }[] = [];
    for (const { step, condition, keys, runs } of view.steps) {
      const keyedStep = keys.filter((secret) => this.isKey(secret) === true && !this.inFreeLane.has(secret));
      if (keyedStep.length === 0 && runs.paid === null) {
        const unknown = keys.find((secret) => this.isKey(secret) === null);
        if (unknown !== undefined && !this.stepGate(condition, events, job).gated) {
          this.report('unevaluableExpression', unknown.loc, `a step of job ${job.id} (${this.file}:${step.loc.line}) runs on ${events.join('/')} with no trust condition and receives a secret chosen at run time: whether it is a model key cannot be read statically. Name the secret, or restrict the step to trusted authors.`);
        }
        continue;
      }
      const gate = this.stepGate(condition, events, job);
      if (gate.gated) continue;
      // The defect is in whichever condition tried: the step's own, else the job's.
      const ofJob = gate.why === 'none' && jobGate.why !== 'none';
      const loc = ofJob ? (job.if?.loc ?? step.loc) : (step.if?.loc ?? step.loc);
      open.push({ step, gate: ofJob ? jobGate : gate, loc, what: keyedStep.length > 0 ? `receives ${secretLabel(keyedStep[0] ?? keys[0])}` : `runs paid tests (${runs.paid})` });
    }
    const [first, ...more] = open;
    if (first === undefined) return;
    const related: Related[] = more.map(({ step }) => ({ file: this.file, line: step.loc.line, message: 'another paid step of the job without a trust condition' }));
    this.untrusted(first.gate, 'untrustedPaidStep', first.loc, `a step of job ${job.id} (${this.file}:${first.step.loc.line}) ${first.what} on ${events.join('/')}${more.length > 0 ? ` (and ${more.length} more step${more.length > 1 ? 's' : ''} of the job)` : ''}`, `Add \`if: ${TRUST_EXAMPLE}\` to the job or the step.`, related);
  }

  /** One finding for a paid job or step that runs for untrusted authors, of the kind its condition's defect says. */
  private untrusted(gate: Gate, kind: 'untrustedPaidJob' | 'untrustedPaidStep', loc: Loc, subject: string, fix: string, related: Related[] = []): void {
    if (gate.gated) return;
    const consequence = "a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key";
    if (gate.why === 'unparsable') {
      this.report('unevaluableExpression', loc, `${subject}, and its condition cannot be evaluated statically (${gate.error}), so it is not known to restrict the run to trusted authors. Rewrite the condition, e.g. \`${TRUST_EXAMPLE}\`.`);
    } else if (gate.why === 'wrongField') {
      this.report('trustOnWrongField', loc, `${subject}, and its condition tests ${gate.field}, not github.event.pull_request.author_association: ${consequence}. Test the author's association instead, e.g. \`${TRUST_EXAMPLE}\`.`, related);
    } else if (gate.why === 'unproven') {
      this.report('unprovenCondition', loc, `${subject}, under a condition that reads ${gate.reads.join(', ') || 'values'} and not the author's association: tripwire cannot tell whether it keeps untrusted authors out (a heuristic). If it is meant as the trust check, state it on the association, e.g. \`${TRUST_EXAMPLE}\`.`, related);
    } else if (gate.why === 'untrustedAssociation') {
      this.report('untrustedAssociation', loc, `${subject}, and its author_association condition lets ${gate.admits ?? 'an untrusted author'} through: ${consequence}. Allow only ${this.options.trustedAssociations.join(', ')}.`, related);
    } else {
      this.report(kind, loc, `${subject} without a condition on the author's association: ${consequence}. ${fix}`, related);
    }
  }

  private stepGate(condition: ParsedCondition | null, events: readonly string[], job: WorkflowJobFact): Gate {
    return combine(events.map((event) => gateOf(condition, event, this.options.trustedAssociations, this.outputsFor(job))));
  }

  /** The outputs a job's conditions can read: those of the jobs it needs, as written (`needs.<job>.outputs.<name>`). */
  private outputsFor(job: WorkflowJobFact): JobOutputs {
    return (needed, name) => {
      if (!job.needs.some((id) => id.toLowerCase() === needed)) return null;
      const source = this.facts.jobs.find((candidate) => candidate.id.toLowerCase() === needed);
      return source?.outputs.find((output) => output.name.toLowerCase() === name)?.text ?? null;
    };
  }

  /** The job's own condition, or a job it needs (transitively) that is skipped for untrusted authors, unless it runs after a skip. */
  private jobGate(view: JobView, events: readonly string[], seen: Set<string>): Gate {
    const own = combine(events.map((event) => gateOf(view.condition, event, this.options.trustedAssociations, this.outputsFor(view.job))));
    if (own.gated || runsAfterSkip(view.condition)) return own;
    seen.add(view.job.id);
    for (const need of view.job.needs) {
      const needed = this.views.get(need);
      if (needed === undefined || seen.has(need)) continue;
      if (this.jobGate(needed, events, seen).gated) return { gated: true };
    }
    return own;
  }

  /** A job of a `pull_request_target` workflow that checks out the pull request's head and receives a key or runs paid tests: reported, always. */
  private headCheckout(view: JobView): boolean {
    const checkout = view.job.steps.find(checksOutHead);
    if (checkout === undefined) return false;
    const keyed = [...view.keys, ...view.steps.flatMap((step) => step.keys)].find((secret) => this.isKey(secret) === true);
    const paid = view.steps.find((step) => step.runs.paid !== null);
    if (keyed === undefined && paid === undefined) return false;
    const what = keyed !== undefined ? `receives ${secretLabel(keyed)}` : `runs paid tests (${paid?.runs.paid ?? ''})`;
    this.report('prTargetRunsPrCode', checkout.loc, `job ${view.job.id} (${this.file}:${view.job.loc.line}) runs on pull_request_target, checks out the pull request's head here and ${what}: the pull request's code runs with the key, so anyone who opens one can exfiltrate it, whatever the condition says. Run paid tests on pull_request, gated on the author's association, or check out the base only.`);
    return true;
  }

  /** A local reusable workflow called with a model key, or with `secrets: inherit` when it reads one. */
  private callsWithKeys(view: JobView): boolean {
    const uses = view.job.uses?.value;
    if (uses === undefined || !view.job.inheritSecrets || !uses.startsWith('./')) return false;
    const file = uses.slice(2).replace(/@.*$/, '');
    // GitHub refuses to start a run whose job calls a workflow the repository lacks: no key reaches it.
    if (!this.model.fileSet.has(file)) return false;
    const called = this.model.workflowFacts(file);
    if (called === null) return false;
    return [...called.secrets, ...called.jobs.flatMap((job) => [...job.secrets, ...job.steps.flatMap((step) => step.secrets)])].some((secret) => this.isKey(secret) === true);
  }

  private report(messageId: MessageIds, loc: Loc, message: string, related: Related[] = []): void {
    const key = `${loc.line}:${loc.column}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.findings.push({ messageId, file: this.file, loc, message, ...(related.length > 0 && { related }) });
  }
}

/** Gated only when gated on every event; otherwise the first way it is not. */
function combine(gates: Gate[]): Gate {
  return gates.find((gate) => !gate.gated) ?? { gated: true };
}

function secretLabel(secret: SecretFact | undefined): string {
  if (secret === undefined) return 'a model key';
  const name = secret.name === null ? 'a secret chosen at run time' : `secrets.${secret.name}`;
  return secret.key === null || secret.key === secret.name ? name : `${name} (as ${secret.key})`;
}

/** `actions/checkout` of the head (`ref: ${{ github.event.pull_request.head.sha }}`, `refs/pull/N/merge`), or `gh pr checkout`. */
function checksOutHead(step: WorkflowStepFact): boolean {
  const head = /pull_request\.head\.|github\.head_ref|refs\/pull\/|pull\/\$\{\{|merge_commit_sha/;
  if (step.uses !== null && /^actions\/checkout@/.test(step.uses.value)) return step.with.some((input) => (input.key === 'ref' || input.key === 'repository') && head.test(input.value));
  return step.run !== null && (/\bgh\s+pr\s+checkout\b/.test(step.run.text) || /\bgit\s+(?:fetch|checkout|pull)\b[^\n]*/.test(step.run.text) && head.test(step.run.text));
}
