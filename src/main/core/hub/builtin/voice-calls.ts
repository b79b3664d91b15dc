/**
 * What happened during a call by voice that the tool's own answer would not say truly: the server
 * wanted xiaozhi's model (sampling), which voice calls cannot offer; or asked a question nobody
 * could be asked (a form the window cannot show, a web page to open).
 */
export type VoiceCallNote = 'sampling' | 'unaskable';

/** A call by voice in flight to a server: what a server's question during it needs to reach the caller. */
export interface VoiceCall {
  session: string;
  caller: string;
  /** Answers the caller now (the call goes on as a task); the task id, or undefined. Absent: the caller waits for the end. */
  answerNow?: (say: (taskId: string) => string) => string | undefined;
  /** The confirm tool's name as this caller was served it; undefined when it is not served. */
  confirmTool: string | undefined;
  /** Set during the call; read when it ends, to tell the model what really happened. */
  notes?: Set<VoiceCallNote>;
}

/** The calls by voice in flight, by server: a server's question (elicitation) is put to the one caller waiting on it. */
export class VoiceCalls {
  /**
   * A set per server, kept when it empties (one per configured server): at 64 calls in flight a
   * list's search and splice, and a new list and closure for each call at one, were per-call work.
   */
  private readonly byServer = new Map<string, Set<VoiceCall>>();

  add(server: string, call: VoiceCall): void {
    let calls = this.byServer.get(server);
    if (!calls) this.byServer.set(server, (calls = new Set()));
    calls.add(call);
  }

  /** The call ended. */
  remove(server: string, call: VoiceCall): void {
    this.byServer.get(server)?.delete(call);
  }

  /** The one call by voice in flight to a server; with two or more, a question cannot be told to belong to either. */
  only(server: string): VoiceCall | undefined {
    const calls = this.byServer.get(server);
    if (calls?.size !== 1) return undefined;
    for (const call of calls) return call;
    return undefined;
  }

  /** Something its answer will not say truly happened during the one call by voice in flight to this server (two: neither can be told). */
  note(server: string, note: VoiceCallNote): void {
    const call = this.only(server);
    if (call) (call.notes ??= new Set()).add(note);
  }
}
