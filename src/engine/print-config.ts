import { rules } from '../../rules/index.js';
import { loadConfig } from '../config/load.js';
import { PAID_COMMANDS, PAID_ENV, PAID_HOSTS, PAID_MODULES, PROBE_FLAGS } from '../vocab/paid.js';
import { selectRules, severityOf } from './rule-set.js';

function union(builtIn: readonly string[], configured: readonly string[]): string[] {
  return [...new Set([...builtIn, ...configured])];
}

/**
 * The configuration a check would use, with every default filled in, each
 * rule's severity and options, and the paid signatures the built-in lists add
 * to the configured ones (no document lists them).
 */
export async function resolvedConfig(options: { cwd: string; configFile?: string }): Promise<unknown> {
  const loaded = await loadConfig({ cwd: options.cwd, ...(options.configFile !== undefined && { configFile: options.configFile }) });
  const { config } = loaded;
  // selectRules validates every rule's options, as check does; a rule turned off keeps its defaults here.
  const selected = new Map(selectRules(config, undefined, loaded.file).map((s) => [s.rule.id, s.options]));
  const resolvedRules = Object.fromEntries(
    rules.map((rule) => {
      const setting = config.rules[rule.id];
      const options = selected.get(rule.id) ?? rule.options.parse((Array.isArray(setting) ? setting[1] : undefined) ?? {});
      return [rule.id, [severityOf(setting), options]];
    }),
  );
  const resolved = {
    file: loaded.file,
    root: loaded.root,
    config: {
      ...config,
      paid: {
        modules: union(PAID_MODULES, config.paid.modules),
        commands: union(PAID_COMMANDS, config.paid.commands),
        hosts: union(PAID_HOSTS, config.paid.hosts),
        env: union(PAID_ENV, config.paid.env),
        probeFlags: union(PROBE_FLAGS, config.paid.probeFlags),
      },
      rules: resolvedRules,
    },
  };
  return resolved;
}
