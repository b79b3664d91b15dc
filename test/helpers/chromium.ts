import fs from 'node:fs';

/** Debian's Chromium (CHROMIUM_PATH names another), for the window's end-to-end tests. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = fs.existsSync(CHROMIUM);

/** How the tests start Debian's Chromium (headless, no sandbox: a container, no display). */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
};
