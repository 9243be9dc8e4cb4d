import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { CONFIG_FILE_NAMES, PACKAGE_JSON_KEY } from '../config/names.js';
import { cacheDirectory } from '../facts/cache.js';
import { cacheRefusal } from '../repo/cache-guard.js';
import { writeFileAtomic } from '../util/fs.js';

// Where `tripwire init` writes: the file that configures tripwire today, the one it writes, and whether the fact cache may be used.

/** The file that configures tripwire in `root` today, if any: a config file, or the "tripwire" key of package.json. */
export function existingConfig(root: string): string | null {
  for (const name of CONFIG_FILE_NAMES) if (existsSync(join(root, name))) return name;
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest)) return null;
  const data: unknown = parse(readFileSync(manifest, 'utf8'));
  return typeof data === 'object' && data !== null && PACKAGE_JSON_KEY in data ? `package.json "${PACKAGE_JSON_KEY}"` : null;
}

/** The config file init writes: --force replaces a config file in place; a package.json key stays, and the new file takes precedence over it. */
export function configTarget(existing: string | null): string {
  const [defaultName = 'tripwire.config.json'] = CONFIG_FILE_NAMES;
  return CONFIG_FILE_NAMES.find((name) => name === existing) ?? defaultName;
}

/** Why the fact cache of `root` must not be used (it would be written into the checked tree's tracked files), or null. */
export async function factCacheRefusal(root: string): Promise<string | null> {
  return cacheRefusal(cacheDirectory(root), root);
}

/** Writes the config atomically: a reader never sees half of it. */
export function writeConfigFile(root: string, name: string, text: string): void {
  writeFileAtomic(join(root, name), text);
}
