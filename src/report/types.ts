import type { CheckResult, SeveritySetting } from '../types.js';

export interface RuleMetaForReport {
  id: string;
  description: string;
  url: string;
  /** Configured severity; SARIF `defaultConfiguration` is only as precise as this. */
  severity?: SeveritySetting;
  /** The kinds of finding the rule reports, by message id. */
  messages?: Record<string, { description: string }>;
}

export interface ReportOptions {
  /** Absolute root the findings' file paths are relative to. */
  cwd: string;
  /**
   * The git top level holding `cwd`, when it is above it (a package of a monorepo):
   * GitHub places annotations and SARIF results relative to the repository, not to tripwire's root.
   */
  repoRoot?: string;
  /** Where the user stands (the process's directory): stylish prints paths relative to it, so a terminal can open them. Default: `cwd`. */
  from?: string;
  color: boolean;
  rules: RuleMetaForReport[];
  toolVersion: string;
}

export type Reporter = (result: CheckResult, options: ReportOptions) => string;
