import { basename } from 'node:path';
import { RULE_IDS } from '../rule-ids.js';
import { rules as allRules } from '../../rules/index.js';
import { ConfigError, issuesFromZod } from '../config/errors.js';
import { type Config, type RuleSetting } from '../config/schema.js';
import type { SeveritySetting } from '../types.js';
import { UsageError } from '../errors.js';
import { type SelectedRule } from './types.js';

export function selectRules(config: Config, only: string[] | undefined, configFile: string | null): SelectedRule[] {
  for (const id of only ?? []) {
    if (!RULE_IDS.some((known) => known === id)) throw new UsageError(`unknown rule '${id}' (known: ${RULE_IDS.join(', ')})`);
  }
  const selected: SelectedRule[] = [];
  for (const rule of allRules) {
    if (only && !only.includes(rule.id)) continue;
    const setting = config.rules[rule.id];
    const severity = severityOf(setting);
    const raw = Array.isArray(setting) ? setting[1] : undefined;
    const parsed = rule.options.safeParse(raw ?? {});
    if (!parsed.success) {
      const file = configFile ?? 'tripwire.config.json';
      throw new ConfigError(file, issuesFromZod(parsed.error.issues, rule.options, ['rules', rule.id, 1]), basename(file));
    }
    if (severity !== 'off') selected.push({ rule, severity, options: parsed.data, preset: config.preset });
  }
  return selected;
}

export function severityOf(setting: RuleSetting | undefined): SeveritySetting {
  if (setting === undefined) return 'error';
  return Array.isArray(setting) ? setting[0] : setting;
}
