/** A call by voice in flight to a server: what a server's question during it needs to reach the caller. */
export interface VoiceCall {
  session: string;
  caller: string;
  /** Answers the caller now (the call goes on as a task); the task id, or undefined. */
  answerNow: (say: (taskId: string) => string) => string | undefined;
  /** The confirm tool's name as this caller was served it; undefined when it is not served. */
  confirmTool: string | undefined;
}

/** The calls by voice in flight, by server: a server's question (elicitation) is put to the one caller waiting on it. */
export class VoiceCalls {
  private readonly byServer = new Map<string, VoiceCall[]>();

  add(server: string, call: VoiceCall): () => void {
    const list = this.byServer.get(server) ?? [];
    list.push(call);
    this.byServer.set(server, list);
    return () => {
      const at = list.indexOf(call);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0 && this.byServer.get(server) === list) this.byServer.delete(server);
    };
  }

  /** The one call by voice in flight to a server; with two or more, a question cannot be told to belong to either. */
  only(server: string): VoiceCall | undefined {
    const list = this.byServer.get(server);
    return list?.length === 1 ? list[0] : undefined;
  }
}
