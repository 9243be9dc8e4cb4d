import type { CheckResult } from '../types.js';
import type { Reporter, ReportOptions } from './types.js';

export const REPORTER_NAMES = ['stylish', 'json', 'sarif', 'github', 'markdown'] as const;

export type ReporterName = (typeof REPORTER_NAMES)[number];

export type { Reporter, ReportOptions, RuleMetaForReport } from './types.js';

const reporters: Record<ReporterName, () => Promise<Reporter>> = {
  stylish: async () => (await import('./stylish.js')).stylish,
  json: async () => (await import('./json.js')).json,
  sarif: async () => (await import('./sarif.js')).sarif,
  github: async () => (await import('./github.js')).github,
  markdown: async () => (await import('./markdown.js')).markdown,
};

export function isReporterName(value: string): value is ReporterName {
  return REPORTER_NAMES.some((name) => name === value);
}

export async function report(name: ReporterName, result: CheckResult, options: ReportOptions): Promise<string> {
  const reporter = await reporters[name]();
  return reporter(result, options);
}

function isDisabled(value: string | undefined): boolean {
  return value === '0' || value === 'false';
}

/**
 * FORCE_COLOR wins over NO_COLOR as in Node itself; NO_COLOR counts only when
 * non-empty (https://no-color.org).
 */
export function shouldColor(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !isDisabled(force);
  if (env.NO_COLOR) return false;
  if (env.NODE_DISABLE_COLORS) return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

// In their own module so that a reporter can use them without importing this one (which imports the reporters).
export { displayPath, repositoryPath } from './paths.js';
