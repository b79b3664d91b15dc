/**
 * A count said in the window's language with its number large, wherever the language puts it:
 * "今日调用 3 次", "3 calls today". `text` is the whole phrase; `value` is the number as written in it.
 */
export function StatFigure({ text, value }: { text: string; value: string }) {
  const at = text.indexOf(value);
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
