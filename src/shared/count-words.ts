/**
 * "1 server", "2 servers": English counts for the CLI and the log (the window words counts in each
 * language through its dictionaries). Every noun these texts count takes a plain -s.
 */
export function countOf(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
