import type { Tool } from '@modelcontextprotocol/sdk/types.js';

import { toolWordsZh } from '../../../shared/i18n/tool-words-zh-CN';
import { type Language, translate } from '../../../shared/i18n/translate';
import { readableArguments } from '../../../shared/readable-arguments';
import { cutAt } from './tool-pages';

/** Arguments shown in a confirmation request, and how long each value may be: enough to know what is meant. */
const SHOWN_ARGUMENTS = 3;
const SHOWN_VALUE_CHARS = 40;

/** How long a tool's name may be when said: past it, it is cut. */
const SPOKEN_NAME_CHARS = 40;
const HAN = /\p{Script=Han}/u;

/** What an action is said with: the voice language, and the server in our words (its catalogue title) when we have them. */
export interface ActionWords {
  language: Language;
  server?: string | undefined;
}

/**
 * The action as the user will hear it, in the voice language: the server's catalogue title when it came
 * from the catalogue, the tool (its title when that is in the voice language, else its name made
 * speakable: a Chinese sentence said "Delete Entities"), and its main arguments.
 */
export function describeAction(tool: Tool, args: Record<string, unknown>, words: ActionWords): string {
  const { language, server } = words;
  const said = spokenTool(tool, language);
  const action = server
    ? translate(language, 'voice.action.ofServer', { server, tool: said })
    : translate(language, 'voice.action.tool', { tool: said });
  const shown = shownArguments(args).map(({ name: key, value }) => `${key}: ${value}`);
  return shown.length > 0 ? translate(language, 'voice.action.withArguments', { action, arguments: shown.join(', ') }) : action;
}

/** The tool as said: its title if written in the voice language, else its own name with its separators made spaces. */
export function spokenTool(tool: Tool, language: Language): string {
  const title = tool.annotations?.title ?? tool.title;
  if (title && HAN.test(title) === (language === 'zh-CN')) return cut(oneLine(title));
  const words = tool.name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  // In Chinese, a name of common words is said in Chinese (写入文件, not "write file"), the window's panel the same.
  const zh = language === 'zh-CN' ? toolWordsZh(words.split(/\s+/)) : undefined;
  return cut(zh ?? words);
}

const cut = (text: string, chars = SPOKEN_NAME_CHARS) => (text.length > chars ? `${cutAt(text, chars - 1)}…` : text);
/** A server's title is said, not laid out: a line break in it would make a line of its own in what the model reads. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The tool's title, or its name. */
export function actionTitle(tool: Tool, name: string): string {
  return tool.annotations?.title ?? tool.title ?? name;
}

/**
 * The first few arguments, each value cut short, secrets hidden (nested ones too): what the user is
 * shown and told. Written as the window lists them (readable-arguments.ts), JSON's quotes left out.
 */
export function shownArguments(args: Record<string, unknown>): { name: string; value: string }[] {
  return (readableArguments(Object.fromEntries(Object.entries(args).slice(0, SHOWN_ARGUMENTS))) ?? []).map(({ name, value }) => ({
    name,
    value: cut(value, SHOWN_VALUE_CHARS),
  }));
}
