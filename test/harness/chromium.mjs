// Debian's Chromium, launched the same way by every tool here (test runner, e2e, bench, screenshots):
// never a downloaded browser, and flags that keep it from reaching for the network on a closed machine.
export const chromiumLaunchOptions = () => ({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
