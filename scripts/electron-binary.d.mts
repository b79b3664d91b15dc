export const ROOT: string;
export function findElectron(root?: string): { binary: string; reason?: undefined } | { binary?: undefined; reason: string };
export const ELECTRON_HINT: string;
