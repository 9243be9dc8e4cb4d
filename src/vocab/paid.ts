// The built-in paid signatures: what a call to a metered model looks like in a
// repository. A configuration's `paid` adds to these lists (print-config shows both).

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

/** Words of a script or suite name (`test:e2e`, `evals`, `test:live`, `test:llm`) that say a paid suite. */
export const PAID_SUITE_WORD = /^(?:evals?|e2e|live|paid|llm)$/i;
/** Words that also name suites against local services (`test:int`, `integration`): such a suite is paid only when one of its files shows it. */
export const WEAK_PAID_SUITE_WORD = /^(?:int|integration)$/i;
