import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';

export type Yaml = typeof YamlModule;

let loaded: Yaml | undefined;

/** The YAML parser, loaded on first use: only front matter and YAML maps need it. */
export function loadYaml(): Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as Yaml;
  return loaded;
}
