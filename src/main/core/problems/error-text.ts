/** The message of anything thrown (an Error's message, else the value as text). */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
