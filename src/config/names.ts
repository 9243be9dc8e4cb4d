/**
 * Config files, first match wins, in the nearest directory at or above the working directory
 * (or the linted file) that holds one or a package.json with the `"tripwire"` key
 * ({@link PACKAGE_JSON_KEY}), no higher than the git top level (config/root.ts). Both files are
 * JSONC: comments and trailing commas are allowed. Kept apart from the schema so the CLI can
 * name them without loading zod.
 */
export const CONFIG_FILE_NAMES = ['tripwire.config.json', 'tripwire.config.jsonc'] as const;

/** The package.json key that may hold the configuration instead of a config file. */
export const PACKAGE_JSON_KEY = 'tripwire';
