import fs from 'node:fs';

/**
 * Config files named on a command line (a second launch, "Open with Xiaozhi Tray"): the arguments
 * that are not flags, look like configs and exist.
 */
export function configFilesIn(argv: string[], exists: (file: string) => boolean = fs.existsSync): string[] {
  return argv.slice(1).filter((arg) => !arg.startsWith('-') && /\.(json|jsonc|toml)$/i.test(arg) && exists(arg));
}
