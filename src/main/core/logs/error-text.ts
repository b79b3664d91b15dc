/**
 * Does a tool's answer, sent as a success (no `isError`), read as an error message? Some servers
 * answer a failure as plain text ("Error: city not found", "错误：…", a Python traceback); the
 * history and Activity then say "answered with an error message" rather than "OK". What xiaozhi
 * receives is not changed.
 *
 * Conservative on purpose: only the answer's start (its first characters, after spaces) is looked
 * at, and only these clear forms count, each with a colon or a fixed phrase, so an ordinary
 * sentence that merely mentions an error ("Error handling in Python: …", "错误码 0，成功") does not:
 * - a word for error or failure followed by a colon: `Error:`, `Fatal:`, `错误：`, `错误:`, `失败：`, `出错：`, `异常：`;
 * - a tag in brackets: `[ERROR]`, `[错误]`;
 * - a Python traceback: `Traceback (most recent call last):`;
 * - an exception's name and colon: `KeyError: …`, `requests.exceptions.ConnectionError: …`;
 * - the MCP SDKs' wording of a thrown error: `Error executing tool …`, `Error calling tool …`;
 * - a JSON object whose first key is `error` with a string or object value: `{"error": "…"}`.
 */
const ERROR_STARTS = [
  /^(?:error|fatal(?: error)?)\s*[:：]/i,
  /^(?:错误|錯誤|失败|失敗|出错|出錯|异常|異常)\s*[:：]/,
  /^\[(?:error|fatal|错误|錯誤)\]/i,
  /^Traceback \(most recent call last\)/,
  /^[A-Za-z_][\w.]*(?:Error|Exception)\s*[:：]/,
  /^error (?:executing|calling) tool\b/i,
  /^\{\s*"error"\s*:\s*["{]/,
];

/** How much of the answer's start is looked at: the test stays as cheap for a 1 MB answer as for a short one. */
const LOOKED_AT = 200;

export function readsAsError(text: string): boolean {
  const start = text.slice(0, LOOKED_AT).trimStart();
  if (start === '') return false;
  // A loop, not `some`: its callback was a closure made for every call recorded.
  for (const pattern of ERROR_STARTS) if (pattern.test(start)) return true;
  return false;
}
