/**
 * Replacing links and servers runs one at a time: two saves at once (a double click) would
 * otherwise both stop the old one and both start a new one, leaving one running unowned.
 * Both fleets take their turns in the same queue.
 */
export class ChangeQueue {
  private last: Promise<void> = Promise.resolve();

  run(work: () => Promise<void>): Promise<void> {
    const turn = this.last.then(work);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}
