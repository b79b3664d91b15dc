/** What the memory measurements read: resident memory, the heap in use, and a settled heap (run with --expose-gc). */
export const rssMb = (): number => process.memoryUsage().rss / 1048576;
export const heapMb = (): number => process.memoryUsage().heapUsed / 1048576;

/** Collects garbage a few times, each after a turn of the event loop (what an awaiting frame held is let go). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
