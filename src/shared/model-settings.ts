import { z } from 'zod';

import { isAllowedKey, KEY_NAME_RULE } from './forbidden-keys';
import { MASK_MARKER } from './masked';

/**
 * A chat model of the user's choice, reached through one OpenAI-compatible chat-completions client:
 * for "Try a sentence" (what would xiaozhi's model pick from the tools we serve?) and, with the user's
 * consent, for a server's `sampling/createMessage` during a call by voice.
 */

/** The providers xiaozhi users have keys for, a local Ollama, and any other compatible address. */
export const MODEL_PROVIDERS = ['deepseek', 'qwen', 'doubao', 'zhipu', 'moonshot', 'openai', 'ollama', 'custom'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export interface ModelPreset {
  /** The OpenAI-compatible base URL (the client adds `/chat/completions`). */
  baseUrl: string;
  /** A model of the provider that calls functions; the user may name another. */
  model: string;
  /** Whether the provider needs an API key (a local Ollama takes any). */
  needsKey: boolean;
  /** Where the user gets a key (or, for Ollama, the model). */
  keyPage?: string;
}

/**
 * Base URLs and default models from each provider's own documentation:
 * - DeepSeek: https://api-docs.deepseek.com/ ("Your First API Call": base_url https://api.deepseek.com;
 *   deepseek-chat, the non-thinking mode, now answers as deepseek-v4-flash, which the page names).
 * - Qwen (DashScope compatible mode): https://help.aliyun.com/zh/model-studio/compatibility-of-openai-with-dashscope
 *   (base_url https://dashscope.aliyuncs.com/compatible-mode/v1, qwen-plus).
 * - Doubao (Volcengine Ark, API v3, "compatible with the OpenAI protocol"): https://www.volcengine.com/docs/82379/1355331
 *   and its model list https://www.volcengine.com/docs/82379/1330310; the model is a Model ID the user
 *   activated in the Ark console (doubao-seed-1-6-flash-250828, which calls functions) or an endpoint id (ep-…).
 * - Zhipu GLM: https://docs.bigmodel.cn/cn/guide/develop/openai/introduction (base_url
 *   https://open.bigmodel.cn/api/paas/v4, glm-4-flash: the free fast model).
 * - Moonshot (Kimi): https://platform.kimi.com/docs/api/overview (base_url https://api.moonshot.cn/v1; moonshot-v1-8k).
 * - OpenAI: https://platform.openai.com/docs/api-reference/chat (https://api.openai.com/v1).
 * - Ollama: https://docs.ollama.com/api/openai-compatibility (http://localhost:11434/v1, no key: any value).
 */
export const MODEL_PRESETS: Record<Exclude<ModelProvider, 'custom'>, ModelPreset> = {
  deepseek: {
    baseUrl: 'https://api.deepseek.com',
    model: 'deepseek-v4-flash',
    needsKey: true,
    keyPage: 'https://platform.deepseek.com/api_keys',
  },
  qwen: {
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    model: 'qwen-plus',
    needsKey: true,
    keyPage: 'https://bailian.console.aliyun.com/?apiKey=1',
  },
  doubao: {
    baseUrl: 'https://ark.cn-beijing.volces.com/api/v3',
    model: 'doubao-seed-1-6-flash-250828',
    needsKey: true,
    keyPage: 'https://console.volcengine.com/ark/region:ark+cn-beijing/apiKey',
  },
  zhipu: {
    baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    model: 'glm-4-flash',
    needsKey: true,
    keyPage: 'https://bigmodel.cn/usercenter/proj-mgmt/apikeys',
  },
  moonshot: {
    baseUrl: 'https://api.moonshot.cn/v1',
    model: 'moonshot-v1-8k',
    needsKey: true,
    keyPage: 'https://platform.moonshot.cn/console/api-keys',
  },
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', needsKey: true, keyPage: 'https://platform.openai.com/api-keys' },
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3', needsKey: false, keyPage: 'https://ollama.com/library' },
};

/** Bounds of a server's sampling request answered by the model, per call by voice. */
export const SamplingBoundsSchema = z.object({
  /**
   * Answer a server's `sampling/createMessage` during a call by voice with this model (off unless the
   * user says so: the server's messages go to the provider, and it costs).
   */
  enabled: z.boolean().default(false),
  /** The most tokens an answer may have (a server asking for more gets this many). */
  maxTokens: z.number().int().min(16).max(8192).default(512),
  /** How long one answer may take. */
  timeoutMs: z.number().int().min(1000).max(300_000).default(30_000),
  /** How many requests one call by voice may have answered. */
  perCall: z.number().int().min(1).max(20).default(3),
});

const BaseUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL without a user name or password');

export const ModelSettingsSchema = z.object({
  provider: z.enum(MODEL_PROVIDERS),
  /** Absent: the preset's. A custom provider needs one. */
  baseUrl: BaseUrlSchema.optional(),
  /** Absent: the preset's default model. */
  model: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  /** The provider's API key: a secret (encrypted on the desktop, the config file 0600 headless, masked in the window). */
  apiKey: z.string().trim().min(1).max(4096).optional(),
  /** Ask with `stream: true` (some providers' thinking models answer only so). */
  stream: z.boolean().optional(),
  sampling: SamplingBoundsSchema.default(SamplingBoundsSchema.parse({})),
});

export type ModelSettings = z.infer<typeof ModelSettingsSchema>;
export type SamplingBounds = z.infer<typeof SamplingBoundsSchema>;

/** Sentences a user would say, per tool (by server and the server's own tool name): kept with the config. */
const KeyName = z.string().refine(isAllowedKey, KEY_NAME_RULE);
export const MAX_SENTENCES_PER_TOOL = 20;
export const SentenceSetsSchema = z.record(
  KeyName,
  z.record(KeyName, z.array(z.string().trim().min(1, 'must not be empty').max(500)).max(MAX_SENTENCES_PER_TOOL)),
);
export type SentenceSets = z.infer<typeof SentenceSetsSchema>;

/** The address and model a setting means: the preset's unless the user named others. */
export function modelTarget(settings: Pick<ModelSettings, 'provider' | 'baseUrl' | 'model'>): { baseUrl: string; model: string } {
  const preset = settings.provider === 'custom' ? undefined : MODEL_PRESETS[settings.provider];
  return { baseUrl: settings.baseUrl ?? preset?.baseUrl ?? '', model: settings.model ?? preset?.model ?? '' };
}

/** Whether the model can be asked: an address, a model, and a key where the provider needs one (a masked key counts). */
export function modelReady(settings: ModelSettings | undefined): boolean {
  return settings !== undefined && modelMissing(settings).length === 0;
}

/** The fields a saved model still lacks before it can be asked (a custom provider has no preset to fill them). */
export function modelMissing(settings: ModelSettings): ('baseUrl' | 'model' | 'apiKey')[] {
  const { baseUrl, model } = modelTarget(settings);
  const needsKey = settings.provider !== 'custom' && MODEL_PRESETS[settings.provider].needsKey;
  return [
    ...(baseUrl === '' ? (['baseUrl'] as const) : []),
    ...(model === '' ? (['model'] as const) : []),
    ...(needsKey && settings.apiKey === undefined ? (['apiKey'] as const) : []),
  ];
}

/** A key the window got masked ("sk-1…(redacted)"). */
export const isMaskedKey = (value: string): boolean => value.endsWith(MASK_MARKER);
