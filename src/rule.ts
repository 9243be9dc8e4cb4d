import type * as z from 'zod';
import type { RuleId } from './rule-ids.js';
import type { RepoModel } from './model/model.js';
import type { ChainLink, Fix, Loc, Related } from './types.js';

export const DOCS_BASE_URL = 'https://github.com/tripwire-lint/tripwire/blob/main/rules/';

/** One kind of finding a rule reports, under a camelCase message id that is stable across releases. */
export interface MessageKind {
  /** What the finding means, for the rule's doc and SARIF's `messageStrings`. */
  description: string;
  /**
   * The finding rests on a name, a prose mention or a guess about run-time
   * values, not on a structural fact: under the `recommended` preset it is a
   * warning (`true`), or not reported at all (`'off'`, for kinds that were
   * never a defect on the precision corpus); under `strict` it takes the
   * rule's severity.
   */
  heuristic?: true | 'off';
}

/** A finding as a rule reports it; the engine adds the rule id and the configured severity. */
export interface RuleFinding<MessageId extends string = string> {
  messageId: MessageId;
  file: string;
  loc: Loc;
  message: string;
  related?: Related[];
  fix?: Fix;
  /** The chain to a paid call, test first (see Finding.chain). */
  chain?: ChainLink[];
}

export interface RuleMeta<MessageId extends string = string> {
  description: string;
  /**
   * The languages of the files its findings land in, for the ESLint surface.
   * `yaml/yaml`: YAML files, which ESLint lints only through a YAML parser
   * (yaml-eslint-parser presents them as `js/js`): not in the code presets.
   */
  languages: ('js/js' | 'markdown/commonmark' | 'markdown/gfm' | 'json/json' | 'yaml/yaml')[];
  recommended: boolean;
  /** Every kind of finding the rule can report; `check` can report no other id. */
  messages: Record<MessageId, MessageKind>;
  /** The kinds of mechanical fix it attaches to findings (message id → what it does): ESLint suggestions, `tripwire fix`. */
  fixes?: Record<string, string>;
}

/**
 * How a rule evaluates its units (a free test, a paid test, a shipped file):
 * each unit's findings come from `compute`, or from a verdict an earlier run
 * stored for it while nothing it read has changed (engine/verdicts.ts). A
 * unit's findings must depend only on what its own computation reads: what
 * several units share goes through the model's memo, which charges its reads
 * to each taker.
 */
export interface Units {
  /**
   * `context`: what the computation takes from outside that it does not read
   * through the model (values the rule computed before, from other files):
   * a stored verdict is taken back only under the same context.
   */
  of<T>(unit: string, compute: () => T[], context?: string): T[];
  /** How many units were computed and how many taken back, so far. */
  readonly counts?: { evaluated: number; reused: number };
}

/** Every unit computed: what a rule runs with outside a verdict store. */
export const COMPUTE_UNITS: Units = { of: (_unit, compute) => compute() };

export interface TripwireRule {
  id: RuleId;
  meta: RuleMeta & { url: string };
  /** Validates the options of `[severity, options]` in the config and fills in their defaults; throws the zod error. */
  parseOptions(options: unknown): unknown;
  options: z.ZodType;
  /** Runs the rule with options `parseOptions` returned (the engine parses them once, when it selects the rules). */
  check(model: RepoModel, options: unknown, units?: Units): RuleFinding[];
  /** Computes units one by one without the rest of `check` (RuleDefinition.resume). */
  resume?(model: RepoModel, options: unknown): Revive;
}

/** One unit's findings from its key and the context it was asked with (Units.of). */
export type Revive = (unit: string, context: string | undefined) => RuleFinding[];

interface RuleDefinition<Options, MessageIds extends string> {
  id: RuleId;
  meta: RuleMeta<MessageIds>;
  /** A strict zod object with defaults (`z.strictObject({})` for none); the rule receives the parsed value. */
  options: z.ZodType<Options, unknown>;
  check(model: RepoModel, options: Options, units: Units): RuleFinding<NoInfer<MessageIds>>[];
  /**
   * How to compute one unit from its key and the context `check` gave it,
   * without the rest of `check`: what a run does when nothing `check` read
   * outside its units has changed and only some units read a change
   * (engine/verdicts.ts). Called once per such run; what it returns must
   * give a unit the findings `check`'s own computation of it gives. A rule
   * with it returns each unit's findings whole and in the order it asked for
   * the units; the engine checks that, and evaluates the whole rule again
   * when they are not.
   */
  resume?(model: RepoModel, options: Options): (unit: string, context: string | undefined) => RuleFinding<NoInfer<MessageIds>>[];
}

/** Every rule is built here so that its docs URL follows from its id, its options are validated in one place, and it reports only the message ids it declares. */
export function createRule<Options, MessageIds extends string>(rule: RuleDefinition<Options, MessageIds>): TripwireRule {
  const parse = (options: unknown): Options => rule.options.parse(options ?? {});
  const resume = rule.resume;
  return {
    id: rule.id,
    meta: { ...rule.meta, url: `${DOCS_BASE_URL}${rule.id}.md` },
    parseOptions: parse,
    options: rule.options,
    check: (model, options, units = COMPUTE_UNITS) => rule.check(model, options as Options, units),
    ...(resume && { resume: (model: RepoModel, options: unknown): Revive => resume(model, options as Options) }),
  };
}
