/**
 * The system's language for a bridge whose settings say "system": the POSIX variables a terminal
 * and a service unit set (LC_ALL, LC_MESSAGES, LANG), else what the JavaScript runtime reports.
 */
export function systemLocale(env: NodeJS.ProcessEnv): string | undefined {
  const posix = env.LC_ALL || env.LC_MESSAGES || env.LANG;
  if (posix && posix !== 'C' && posix !== 'POSIX') return posix.replace('_', '-').split('.')[0];
  return Intl.DateTimeFormat().resolvedOptions().locale;
}
