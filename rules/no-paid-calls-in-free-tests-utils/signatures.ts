import type { Config } from '../../src/config/schema.js';
import { basename } from '../../src/facts/shell.js';
import type { Site, Word } from '../../src/facts/types.js';
import { compileGlobs } from '../../src/repo/glob.js';

/** Model vendors' SDKs. A subpath (`openai/resources`) counts as its package. */
export const PAID_MODULES = [
  'openai',
  '@azure/openai',
  '@anthropic-ai/sdk',
  '@anthropic-ai/claude-agent-sdk',
  '@anthropic-ai/claude-code',
  '@anthropic-ai/bedrock-sdk',
  '@anthropic-ai/vertex-sdk',
  '@google/genai',
  '@google/generative-ai',
  '@google-cloud/vertexai',
  '@google-cloud/aiplatform',
  '@mistralai/mistralai',
  'cohere-ai',
  'groq-sdk',
  'together-ai',
  'replicate',
  '@huggingface/inference',
  '@aws-sdk/client-bedrock-runtime',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  '@ai-sdk/google',
  '@ai-sdk/google-vertex',
  '@ai-sdk/mistral',
  '@ai-sdk/cohere',
  '@ai-sdk/groq',
  '@ai-sdk/xai',
  '@ai-sdk/deepseek',
  '@ai-sdk/amazon-bedrock',
  '@ai-sdk/azure',
  '@ai-sdk/perplexity',
  '@ai-sdk/fireworks',
  '@ai-sdk/togetherai',
  '@ai-sdk/openai-compatible',
  '@openrouter/ai-sdk-provider',
  '@langchain/openai',
  '@langchain/anthropic',
  '@langchain/google-genai',
  '@langchain/google-vertexai',
  '@langchain/mistralai',
  '@langchain/cohere',
  '@langchain/groq',
];

/** Model CLIs: running one is a model call. */
export const PAID_COMMANDS = ['claude', 'codex', 'gemini', 'aider', 'cursor-agent', 'opencode', 'amp', 'goose', 'copilot', 'llm', 'qwen'];

/** Metered API hosts; `*` matches one DNS label or more. */
export const PAID_HOSTS = [
  'api.openai.com',
  'api.anthropic.com',
  'generativelanguage.googleapis.com',
  '*aiplatform.googleapis.com',
  'api.mistral.ai',
  'api.cohere.ai',
  'api.cohere.com',
  'api.groq.com',
  'api.x.ai',
  'api.deepseek.com',
  'openrouter.ai',
  'api.together.xyz',
  'api.together.ai',
  'api.fireworks.ai',
  'api.perplexity.ai',
  'api.replicate.com',
  'api-inference.huggingface.co',
  '*.openai.azure.com',
  'bedrock-runtime.*.amazonaws.com',
];

/** The vendors' API-key variables: reading one is how a paid call starts. */
export const PAID_ENV = [
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'MISTRAL_API_KEY',
  'COHERE_API_KEY',
  'CO_API_KEY',
  'GROQ_API_KEY',
  'XAI_API_KEY',
  'DEEPSEEK_API_KEY',
  'OPENROUTER_API_KEY',
  'TOGETHER_API_KEY',
  'FIREWORKS_API_KEY',
  'PERPLEXITY_API_KEY',
  'REPLICATE_API_TOKEN',
];

/** Arguments that make a model CLI print and exit without calling a model. */
export const PROBE_FLAGS = ['--version', '-v', '-V', '--help', '-h', 'version', 'help'];

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
