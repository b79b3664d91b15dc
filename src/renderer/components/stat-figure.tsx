/**
 * A count said in the window's language with its number large, wherever the language puts it:
 * "今日调用 3 次", "3 calls today". `text` is the whole phrase; `value` is the number as written in it.
 */
export function StatFigure({ text, value }: { text: string; value: string }) {
  const at = countAt(text, value);
  const before = at < 0 ? '' : text.slice(0, at);
  const after = at < 0 ? ` ${text}` : text.slice(at + value.length);
  return (
    <div className="stat-figure">
      {before ? <span className="stat-label">{before}</span> : null}
      <span className="stat-value">{value}</span>
      {after ? <span className="stat-label">{after}</span> : null}
    </div>
  );
}

const NUMBER_PART = /[\d.,]/;

/**
 * Where the count stands in the phrase: an occurrence of `value` that is a whole number (the 4 of
 * "24 小时内调用 4 次" is not the one inside 24). When the label has the same number too ("24 小时内调用
 * 24 次", "24 calls in 24 hours"), the count comes last in our Chinese phrases and first in English.
 */
function countAt(text: string, value: string): number {
  const whole: number[] = [];
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    if (!NUMBER_PART.test(text.charAt(at - 1)) && !NUMBER_PART.test(text.charAt(at + value.length))) whole.push(at);
  }
  if (whole.length === 0) return text.indexOf(value);
  return (/[\u4e00-\u9fff]/.test(text) ? whole.at(-1) : whole[0]) ?? -1;
}
