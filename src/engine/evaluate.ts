import { RULE_IDS } from '../rule-ids.js';
import type { RepoModel } from '../model/model.js';
import type { Finding } from '../types.js';
import type { Progress } from '../util/progress.js';
import { roundMs, type RuleTime } from '../util/timing.js';
import { type SelectedRule } from './types.js';
import { CORE_RULES, SUPPRESSION_WITHOUT_REASON, toFinding, unmatchedGlobs, complexGlobs, uncheckedSubmodules } from './core-checks.js';
import { paidList } from '../analysis/paid-list.js';
import { COMPUTE_UNITS, type Revive, type RuleFinding, type Units } from '../rule.js';
import type { VerdictStore } from './verdicts.js';
import { compareText } from '../util/compare.js';
import { sha1 } from '../util/hash.js';

/**
 * Runs the selected rules over a model and applies what every surface applies:
 * tripwire's own findings about its inputs, then `tripwire-disable` comments.
 */
export function evaluate(model: RepoModel, selected: readonly SelectedRule[], configPath: string | null, observe?: { rules: RuleTime[]; progress?: Progress }, verdicts?: VerdictStore | null): { findings: Finding[]; suppressed: number } {
  const findings: Finding[] = [];
  for (const { rule, severity, options: ruleOptions, preset } of selected) {
    observe?.progress?.phase(`checking ${rule.id}`);
    const started = performance.now();
    const factsBefore = model.stats.factsMs;
    const resume = rule.resume;
    const { values: produced, reused, resumed, counts } = stored<RuleFinding>(
      model,
      verdicts,
      rule.id,
      ruleOptions,
      (units) => rule.check(model, ruleOptions, units),
      resume && (() => resume(model, ruleOptions)),
    );
    // The facts a rule is the first to ask for are the facts phase's time, not the rule's.
    observe?.rules.push({
      id: rule.id,
      ms: roundMs(performance.now() - started - (model.stats.factsMs - factsBefore)),
      ...(reused && { reused: true as const }),
      ...(counts && counts.evaluated + counts.reused > 0 && { units: { ...counts } }),
      ...(resumed && { resumed: true as const }),
    });
    for (const finding of produced) {
      const heuristic = rule.meta.messages[finding.messageId]?.heuristic;
      // What rests on a name, a mention or a run-time guess is a warning, or silent, unless the strict preset asks for more.
      if (heuristic === 'off' && preset === 'recommended') continue;
      const kindSeverity = heuristic === true && preset === 'recommended' ? 'warn' : severity;
      const converted = toFinding(rule.id, finding.messageId, kindSeverity, finding.file, finding.loc, finding.message, finding.related);
      if (finding.fix) converted.fix = finding.fix;
      if (finding.chain && finding.chain.length > 0) converted.chain = finding.chain;
      findings.push(converted);
    }
  }
  observe?.progress?.phase('core checks');
  const core = (): Finding[] => [
    ...unmatchedGlobs(model, configPath),
    ...complexGlobs(model, configPath),
    ...uncheckedSubmodules(model),
    ...paidList(model).problems.map((problem) => toFinding('unresolved-paid-list', problem.messageId, 'error', problem.file, problem.loc, problem.message)),
  ];
  // tripwire's own checks of its inputs are a verdict like a rule's (the configuration's bytes are in the store's key).
  findings.push(...stored<Finding>(model, verdicts, 'core-checks', null, core).values);
  const problemIds = { 'read-error': 'readError', 'parse-error': 'parseError', 'unfollowed-symlink': 'unfollowedSymlink' } as const;
  for (const problem of model.reportedProblems()) {
    findings.push(toFinding(problem.kind, problem.messageId ?? problemIds[problem.kind], 'error', problem.file, problem.loc, problem.message));
  }
  const { kept, suppressed } = applySuppressions(model, onePerDefect(findings), new Set(selected.map((s) => s.rule.id)), verdicts);
  return { findings: kept, suppressed };
}

/**
 * What `compute` gives, or the stored verdict of an earlier run whose reads
 * are all unchanged; a computed one is kept for the next. A rule that
 * evaluates unit by unit takes back the units whose reads are unchanged, and
 * one that can compute its units alone (`revive`: TripwireRule.resume) is not
 * run at all while what it read besides its units is unchanged: its units
 * are, the others taken back.
 */
function stored<T>(model: RepoModel, verdicts: VerdictStore | null | undefined, id: string, options: unknown, compute: (units: Units) => T[], revive?: () => Revive): { values: T[]; reused: boolean; resumed?: boolean; counts?: Units['counts'] } {
  const reused = verdicts?.reuse<T>(id, options) ?? null;
  if (reused !== null) return { values: reused, reused: true };
  if (!verdicts) return { values: compute(COMPUTE_UNITS), reused: false };
  const units = verdicts.units(id, options, revive !== undefined);
  let resumed = false;
  // What the rule reads besides its units is recorded here; the units' reads in `units.recorded`.
  const { value, recorded } = model.recording(() => {
    const plan = revive ? units.resume<T>(revive) : null;
    resumed = plan !== null;
    return plan ?? compute(units);
  });
  units.finish(value);
  verdicts.keep(id, options, value, model.readsOf(recorded, units.recorded), revive && model.readsOf(recorded));
  return { values: value, reused: false, resumed, counts: units.counts };
}

/** One finding per defect: the same kind at the same place, however many paths led there, is reported once. */
function onePerDefect(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.ruleId}\0${finding.messageId}\0${finding.file}:${finding.line}:${finding.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * `// tripwire-disable-next-line <rule> -- <reason>` silences a finding only
 * with a reason; without one the comment is itself a finding and silences nothing.
 */
function applySuppressions(model: RepoModel, findings: Finding[], enabled: ReadonlySet<string>, verdicts: VerdictStore | null | undefined): { kept: Finding[]; suppressed: number } {
  const loaded = model.loadedFiles();
  // The comments that are findings themselves depend on the loaded scripts' comments and the rules enabled only: a verdict
  // like a rule's, for this set of scripts, taken back while their comments are the same (the table of every script's
  // comments, megabytes at 10k files, is then not read).
  const scripts = sha1([...loaded].sort(compareText).join('\0'));
  const invalid = stored<Finding>(model, verdicts, 'suppressions', { enabled: [...enabled].sort(compareText), scripts }, () => invalidSuppressions(model, loaded, enabled)).values;
  let suppressed = 0;
  const kept = findings.filter((finding) => {
    const silenced = model.suppressions(finding.file)?.some(
      (s) =>
        s.reason !== null &&
        (s.rules.length === 0 || s.rules.includes(finding.ruleId)) &&
        (s.scope === 'next-line' ? s.loc.endLine + 1 === finding.line : s.loc.line === finding.line),
    );
    if (silenced) suppressed++;
    return !silenced;
  });
  return { kept: [...kept, ...invalid], suppressed };
}

/** The suppression comments of `loaded` that are findings: an unknown rule named, no reason given. */
function invalidSuppressions(model: RepoModel, loaded: readonly string[], enabled: ReadonlySet<string>): Finding[] {
  const invalid: Finding[] = [];
  for (const file of loaded) {
    for (const suppression of model.suppressions(file) ?? []) {
      const unknown = suppression.rules.filter((id) => !RULE_IDS.some((known) => known === id) && !(id in CORE_RULES));
      if (unknown.length > 0) invalid.push(toFinding('invalid-suppression', 'unknownRule', 'error', file, suppression.loc, `tripwire-disable names an unknown rule: ${unknown.join(', ')}`));
      if (suppression.reason !== null) continue;
      const named = suppression.rules.filter((id) => enabled.has(id));
      const ids = suppression.rules.length === 0 ? ['invalid-suppression'] : named;
      for (const id of ids) {
        invalid.push(toFinding(id, SUPPRESSION_WITHOUT_REASON, 'error', file, suppression.loc, 'tripwire-disable without a reason suppresses nothing: add ` -- <why this is safe>`'));
      }
    }
  }
  return invalid;
}
