import type { Tool } from '@modelcontextprotocol/sdk/types.js';

import { type Language, translate } from '../../../shared/i18n/translate';
import type { CatalogTool } from '../../../shared/status';
import { prepareTool } from '../hub/tool-pages';
import { servedSchema } from '../servers/served-schema';
import type { ModelClient } from './model-client';

/** How long a suggested description may be, in characters: a Chinese character says as much as an English word. */
export const SUGGESTED_MAX_CHARS: Record<Language, number> = { 'zh-CN': 60, en: 160 };
/** Tokens the model may spend on it (a thinking model needs some room). */
const MAX_TOKENS = 400;

/** Argument names and their own descriptions, one line each: what the description must not have to repeat. */
function argumentLines(tool: CatalogTool): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
  const lines = Object.entries(properties)
    .slice(0, 12)
    .map(([name, schema]) => `- ${name}${typeof schema?.description === 'string' ? `: ${schema.description.slice(0, 120)}` : ''}`);
  return lines.length > 0 ? lines.join('\n') : '-';
}

/**
 * A shorter, voice-friendly description of a tool, in the voice language, from the user's model:
 * what it does and what people say to ask for it, given the server's own description, its arguments
 * and the sentences the model did not pick it for. One line, cut to the length allowed.
 */
export async function suggestDescription(
  client: ModelClient,
  tool: CatalogTool,
  sentences: readonly string[],
  language: Language,
  signal?: AbortSignal,
): Promise<string> {
  const max = SUGGESTED_MAX_CHARS[language];
  const prompt = translate(language, 'voice.try.suggest', {
    max,
    name: tool.name,
    description: (tool.originalDescription ?? tool.description).slice(0, 2000) || '-',
    arguments: argumentLines(tool),
    sentences: sentences.length > 0 ? sentences.map((s) => `- ${s.slice(0, 200)}`).join('\n') : '-',
  });
  const reply = await client.chat({
    messages: [{ role: 'user', content: prompt }],
    maxTokens: MAX_TOKENS,
    ...(signal ? { signal } : {}),
  });
  return cleanDescription(reply.content, max);
}

/** One line, without the quotes, labels or Markdown a model wraps it in, at most `max` characters. */
export function cleanDescription(text: string, max: number): string {
  let line = text
    // A thinking model's reasoning, when the provider leaves it in the text.
    .replace(/<think>[\s\S]*?<\/think>/g, '')
    .replace(/[*_`#>]+/g, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/^(description|描述|工具描述)\s*[:：]\s*/i, '')
    .trim();
  line = line.replace(/^["'“”‘’「」]+|["'“”‘’「」]+$/g, '').trim();
  const chars = [...line];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : line;
}

/** Bytes the tool takes in a tools/list page with this description (its schema as served). */
export function servedBytes(tool: CatalogTool, description: string): number {
  return prepareTool({ name: tool.name, description, inputSchema: servedSchema(tool.inputSchema as Tool['inputSchema']) }).bytes;
}
