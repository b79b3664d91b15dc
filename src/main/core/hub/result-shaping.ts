import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { type Language, translate } from '../../../shared/i18n/translate';

/**
 * xiaozhi reads `isError` and the text of the first content item only, and drops messages over its
 * size limit. So every result becomes exactly one text item that fits.
 */

function describeBytes(base64: string | undefined): string {
  if (!base64) return '';
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes >= 1024 ? `, ${(bytes / 1024).toFixed(1)} KB` : `, ${bytes} bytes`;
}

/** All content as one text: text items joined, everything else described in words. */
export function resultText(result: CallToolResult): string {
  const { content } = result;
  // The usual answer, one text item: its text, with no list made and joined for it.
  if (content?.length === 1 && content[0]?.type === 'text' && typeof content[0].text === 'string') return content[0].text;
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push(item.text);
        break;
      case 'image':
        parts.push(`[image: ${item.mimeType}${describeBytes(item.data)}]`);
        break;
      case 'audio':
        parts.push(`[audio: ${item.mimeType}${describeBytes(item.data)}]`);
        break;
      case 'resource': {
        const resource = item.resource;
        if ('text' in resource && typeof resource.text === 'string') parts.push(resource.text);
        else parts.push(`[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}]`);
        break;
      }
      case 'resource_link':
        parts.push(`[link: ${item.name ? `${item.name} ` : ''}${item.uri}]`);
        break;
      default:
        parts.push(`[${(item as { type: string }).type} content]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  return parts.join('\n');
}

export function textResult(text: string, isError = false): CallToolResult {
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}

/**
 * An error result whose reason is in both places clients read: `content[0].text` (MCP) and a
 * non-standard `error` (xiaozhi-esp32-server's client reads only that one on `isError`; without it
 * its model hears "工具调用返回错误，但未提供具体错误信息").
 */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true, error: text };
}

/** Bytes of the JSON-RPC response carrying `result` for request `idJson` (the id as JSON). */
export function responseBytes(result: unknown, idJson: string): number {
  return Buffer.byteLength(`{"result":${JSON.stringify(result)},"jsonrpc":"2.0","id":${idJson}}`);
}

const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text));

/**
 * The result as one text item whose response fits `maxBytes`; the text is cut with a visible
 * marker saying how much was left out (in the voice language), so the model knows it saw a part.
 */
export function shapeResult(result: CallToolResult, maxBytes: number, idJson = '0', language: Language = 'en'): CallToolResult {
  const text = resultText(result);
  const isError = result.isError === true;
  // Already one text item and nothing else, far within the limit: sent as it came (no copy per call).
  if (!isError && text.length * 6 + idJson.length + 110 <= maxBytes && isOneTextItem(result)) return result;
  // An error's text goes twice (content and `error`): each copy gets half the room.
  const make = (shown: string) => (isError ? errorResult(shown) : textResult(shown));
  const copies = isError ? 2 : 1;
  const whole = make(text);
  // Fast path: even fully escaped (6 bytes per UTF-16 unit), the text cannot reach the limit.
  if (text.length * 6 * copies + idJson.length + 110 <= maxBytes) return whole;
  if (responseBytes(whole, idJson) <= maxBytes) return whole;

  const overhead = responseBytes(make(''), idJson) - 2 * copies; // minus the empty strings' quotes
  const totalBytes = Buffer.byteLength(text);
  const marker = (shown: number) => `\n…${translate(language, 'voice.result.truncated', { shown, total: totalBytes })}`;
  const budget = Math.floor((maxBytes - overhead) / copies) - jsonBytes(marker(totalBytes)) + 2;
  // Largest prefix whose JSON form fits the budget (binary search over characters).
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonBytes(text.slice(0, mid)) - 2 <= budget - 2) lo = mid;
    else hi = mid - 1;
  }
  let cut = lo;
  // Do not split a surrogate pair.
  if (cut > 0 && /[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut--;
  const head = text.slice(0, cut);
  return make(`${head}${marker(Buffer.byteLength(head))}`);
}

/** `{ content: [{ type: 'text', text }] }` and not a key more (counted without making a list of keys). */
function isOneTextItem(result: CallToolResult): boolean {
  const item = result.content?.length === 1 ? result.content[0] : undefined;
  if (item?.type !== 'text' || typeof item.text !== 'string') return false;
  for (const key in result) if (key !== 'content') return false;
  for (const key in item) if (key !== 'type' && key !== 'text') return false;
  return true;
}
