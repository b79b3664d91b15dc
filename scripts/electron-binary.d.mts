export const ROOT: string;
export function speaksChinese(env?: NodeJS.ProcessEnv): boolean;
export function findElectron(
  root?: string,
  env?: NodeJS.ProcessEnv,
): { binary: string; reason?: undefined } | { binary?: undefined; reason: string };
export const ELECTRON_HINT: string;
