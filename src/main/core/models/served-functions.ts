import { type Language, translate } from '../../../shared/i18n/translate';
import type { Page } from '../hub/tool-pages';
import type { ChatMessage, ChatTool } from './model-client';

/**
 * What xiaozhi's model is given, made from exactly what an endpoint serves (every `tools/list` page,
 * as xiaozhi follows `nextCursor`): OpenAI-style functions with the same names and descriptions, and
 * of each input schema only `type`, `properties` and `required`, which is all xiaozhi keeps
 * (xiaozhi-esp32-server, main/xiaozhi-server/core/providers/tools/mcp_endpoint/mcp_endpoint_client.py,
 * `get_available_tools`).
 */
export function servedFunctions(pages: readonly Page[]): { functions: ChatTool[]; bytes: number } {
  const functions: ChatTool[] = [];
  let bytes = 0;
  for (const page of pages)
    for (const { tool, bytes: size } of page.tools) {
      bytes += size;
      functions.push({
        type: 'function',
        function: {
          name: tool.name,
          description: tool.description,
          parameters: {
            type: tool.inputSchema.type ?? 'object',
            properties: tool.inputSchema.properties ?? {},
            required: tool.inputSchema.required ?? [],
          },
        },
      });
    }
  return { functions, bytes };
}

/**
 * A system prompt like xiaozhi's, short, in the voice language. What it says follows the rules of
 * xiaozhi-esp32-server's prompt template (main/xiaozhi-server/agent-base-prompt.txt, loaded by
 * core/utils/prompt_manager.py): a voice device whose input is speech recognition with near-sounding
 * mistakes, short spoken replies in the chosen language without Markdown, a tool called only when the
 * request clearly matches it, never an unrelated one forced, and a matching one never left uncalled.
 */
export function xiaozhiPrompt(language: Language): ChatMessage {
  return { role: 'system', content: translate(language, 'voice.try.system') };
}
