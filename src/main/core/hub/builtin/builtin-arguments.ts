import { type Language, translate } from '../../../../shared/i18n/translate';

/**
 * The built-in tools' answer to arguments they do not take: said, in the voice language, rather
 * than ignored (a model that asked task_status about `id` instead of `task` would hear every task,
 * and take it for an answer about the one it meant). Undefined when every argument is known.
 */
export function unknownArgumentsText(
  language: Language,
  tool: string,
  args: Record<string, unknown>,
  known: readonly string[],
): string | undefined {
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  if (unknown.length === 0) return undefined;
  const list = (names: readonly string[]) => names.map((name) => `"${name.slice(0, 40)}"`).join(', ');
  return translate(language, 'voice.tool.unknownArguments', { tool, names: list(unknown.slice(0, 5)), known: list(known) });
}
