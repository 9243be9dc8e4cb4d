import type { Config } from '../../src/config/schema.js';
import { commandName as basename } from '../../src/util/path.js';
import type { Site, Word } from '../../src/facts/types.js';
import { compileGlobs } from '../../src/util/glob.js';
import { PAID_COMMANDS, PAID_ENV, PAID_HOSTS, PAID_MODULES, PROBE_FLAGS } from '../../src/vocab/paid.js';

/** What a free test and its helpers planted in the process before running code: env vars they set, CLIs they stubbed. */
export interface Planted {
  env: ReadonlySet<string>;
  /** Stub executables written under these names. */
  commands: ReadonlySet<string>;
  /** A directory the test created is on PATH: a CLI spawned by bare name is whatever it put there. */
  path: boolean;
}

export const NOTHING_PLANTED: Planted = { env: new Set(), commands: new Set(), path: false };

export interface PaidSignatures {
  module(name: string): boolean;
  site(site: Site, planted: Planted): string | null;
}

export function paidSignatures(config: Config): PaidSignatures {
  const modules = compileGlobs([...PAID_MODULES, ...config.paid.modules]);
  const commands = new Set([...PAID_COMMANDS, ...config.paid.commands]);
  const hosts = compileGlobs([...PAID_HOSTS, ...config.paid.hosts].map((host) => host.toLowerCase()));
  const env = new Set([...PAID_ENV, ...config.paid.env]);
  const probeFlags = new Set([...PROBE_FLAGS, ...config.paid.probeFlags]);

  const paidCommand = (argv: Word[], planted: Planted): string | null => {
    const program = argv[0];
    if (typeof program !== 'string') return null;
    const name = basename(program);
    if (!commands.has(name)) return null;
    if (!program.includes('/') && (planted.path || planted.commands.has(name))) return null;
    const args = argv.slice(1);
    const probe = args.length > 0 && args.every((arg) => arg !== null && probeFlags.has(arg));
    return probe ? null : name;
  };

  return {
    module: (name) => modules(name),
    site(site, planted) {
      switch (site.kind) {
        case 'spawn': {
          for (const argv of site.commands) {
            const command = paidCommand(argv, planted);
            if (command !== null) return `spawns ${command}`;
          }
          return null;
        }
        case 'request':
          return site.host !== null && hosts(site.host) ? `requests ${site.host}` : null;
        case 'env':
          // Setting, deleting or saving a key, or reading back a value the test set itself, is credential plumbing.
          if (site.access !== undefined || planted.env.has(site.name)) return null;
          return env.has(site.name) ? `reads ${site.name}` : null;
      }
    },
  };
}
