/** One event of a text/event-stream answer: its `event:` name (absent: "message"), `id:`, and `data:` lines joined. */
export interface StreamEvent {
  event?: string;
  id?: string;
  data: string;
}

/**
 * The events of a whole text/event-stream body (the WHATWG "Server-sent events" rules that matter
 * here: events end at a blank line, `data:` lines are joined by a newline, one space after the colon
 * is dropped, a line starting with `:` is a comment). The platforms' streams are read once they end:
 * a call's answer is its last events.
 */
export function streamEvents(text: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  let current: { event?: string; id?: string; data: string[] } = { data: [] };
  const flush = () => {
    if (current.data.length > 0 || current.event !== undefined)
      events.push({
        data: current.data.join('\n'),
        ...(current.event !== undefined ? { event: current.event } : {}),
        ...(current.id !== undefined ? { id: current.id } : {}),
      });
    current = { data: [] };
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      flush();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') current.data.push(value);
    else if (field === 'event') current.event = value;
    else if (field === 'id') current.id = value;
  }
  flush();
  return events;
}

/** An event's data as JSON, or undefined. */
export function eventJson(event: StreamEvent): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    return undefined;
  }
}
