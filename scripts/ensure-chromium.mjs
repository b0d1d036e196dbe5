// Makes sure Debian's chromium is at /usr/bin/chromium before the browser tests.
// Playwright's own browser download is not used: it cannot reach its CDN here.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = root ? '' : 'sudo ';
  console.log(`${CHROMIUM} is missing: installing Debian's chromium with apt-get…`);
  try {
    execSync(`${sudo}apt-get update && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-liberation`, { stdio: 'inherit' });
  } catch {
    console.error(`Could not install chromium. Install it yourself (apt-get install chromium) so that ${CHROMIUM} exists, then rerun.`);
    process.exit(1);
  }
}
