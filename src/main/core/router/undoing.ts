import { groupTerms } from './search-glossary';
import { isHan, searchTerms } from './search-text';

/**
 * Requests to delete, remove or cancel something. For these a near match is a risky one: the tool
 * that writes the file the user wants deleted, or creates the meeting they want cancelled, shares
 * most of the query's words, and a model given it may well use it. So such a request finds only
 * tools that say they delete, remove or cancel, and, when it names what (a file, a meeting), tools
 * that match that too; otherwise none, and the model is told so.
 */

/** Said in a query: English by its stems, Chinese anywhere ("取消静音" is unmuting, not cancelling). */
const UNDO_STEMS = new Set(['delete', 'remove', 'erase', 'trash', 'wipe', 'purge', 'cancel'].flatMap(searchTerms));
const UNDO_HAN = /删|移除|清除|清空|清掉|擦除|去掉|撤销|取消(?!静音)/;

/** What a tool says when it does such a thing (its name, description or arguments). */
const DOES_STEMS = new Set(
  ['delete', 'remove', 'erase', 'trash', 'wipe', 'purge', 'clear', 'discard', 'cancel', 'stop', 'unlink', 'rm', 'del'].flatMap(searchTerms),
);
const DOES_HAN = /删|移除|清除|清空|擦除|取消|撤销|停止/;

/** Whether the query asks to delete, remove or cancel something. */
export function asksToUndo(query: string, terms: readonly string[] = searchTerms(query)): boolean {
  return UNDO_HAN.test(query) || terms.some((term) => UNDO_STEMS.has(term));
}

/** Whether a tool's own text (name, description, arguments) says it deletes, removes or cancels. */
export function saysItUndoes(text: string): boolean {
  return DOES_HAN.test(text) || searchTerms(text).some((term) => DOES_STEMS.has(term));
}

/** The query's words for the action itself (delete, 删掉, cancel…): matching only these is not matching what to undo. */
const ACTION_TERMS = new Set([...groupTerms('delete'), ...groupTerms('cancel'), ...UNDO_STEMS, ...DOES_STEMS]);

export function isUndoTerm(term: string): boolean {
  return ACTION_TERMS.has(term) || (isHan(term) && (UNDO_HAN.test(term) || DOES_HAN.test(term)));
}
