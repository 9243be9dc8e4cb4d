/**
 * Config files searched in the working directory, first match wins. When none exists, the
 * `"tripwire"` key of package.json ({@link PACKAGE_JSON_KEY}) is read; parent directories are
 * never searched. Both files are JSONC: comments and trailing commas are allowed. Kept apart
 * from the schema so the CLI can name them without loading zod.
 */
export const CONFIG_FILE_NAMES = ['tripwire.config.json', 'tripwire.config.jsonc'] as const;

/** The package.json key that may hold the configuration instead of a config file. */
export const PACKAGE_JSON_KEY = 'tripwire';
