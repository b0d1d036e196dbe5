/**
 * Every view of the built app (served by `vite preview`, which sends the
 * headers of public/_headers) carries the CSP and the cross-origin isolation
 * headers, loads with no CSP violation and asks nothing of another origin.
 */
import { expect, test, type Page } from '@playwright/test';
import { VIEW_NAMES } from '../../src/ui/url';

const PAGES = [...VIEW_NAMES.map((v) => `/?view=${v}`), '/?view=loop&backend=wasm', '/render.html?gallery'];

/** Collects CSP violations (DOM events and console reports) and every request that leaves the page's origin. */
function watch(page: Page, origin: string) {
  const violations: string[] = [];
  const offOrigin: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => {
    const url = r.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    requests.push(url);
    if (new URL(url).origin !== origin) offOrigin.push(url);
  });
  return { violations, offOrigin, requests };
}

test('every view carries the CSP and isolation headers, with 0 CSP violations and 0 off-origin requests', async ({ page, baseURL, request }) => {
  test.setTimeout(480_000);
  const origin = new URL(baseURL!).origin;
  const seen = watch(page, origin);
  // Violations inside the page and its workers reach the DOM as events; keep them where the test can read them.
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  for (const path of PAGES) {
    const response = await page.goto(path);
    const h = response!.headers();
    expect(h['content-security-policy'], path).toContain("default-src 'self'");
    expect(h['content-security-policy'], path).toContain("worker-src 'self' blob:");
    expect(h['content-security-policy'], path).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(h['cross-origin-opener-policy'], path).toBe('same-origin');
    expect(h['cross-origin-embedder-policy'], path).toBe('require-corp');
    expect(await page.evaluate(() => crossOriginIsolated), path).toBe(true);
    if (path.startsWith('/render.html')) await expect(page.locator('#status')).not.toHaveText('loading fonts…');
    else {
      // The engine worker started (tfjs loaded, WASM compiled or WebGPU probed) and the view drew.
      await expect(page.getByTestId('device-badge')).not.toHaveAttribute('data-backend', '');
      // Isolated, so the WASM backend (where asked for, and by default over a software WebGPU adapter such as
      // this machine's) runs one thread per core, and the badge says how many; there is nothing to warn about.
      if ((await page.getByTestId('device-badge').getAttribute('data-backend')) === 'wasm') {
        const cores = Math.min(8, await page.evaluate(() => navigator.hardwareConcurrency));
        await expect(page.getByTestId('device-badge')).toContainText(`${cores} thread${cores === 1 ? '' : 's'}`);
      }
      if (await page.evaluate(() => navigator.hardwareConcurrency > 1)) await expect(page.getByTestId('threads-note')).toHaveCount(0);
    }
    await page.waitForTimeout(1500);
    const inPage = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    seen.violations.push(...inPage.map((v) => `${path}: ${v}`));
  }
  // Every same-origin path the pages and their workers asked for (scripts, workers, WASM, fonts, base checkpoints)
  // is served with the headers. Asked again over plain HTTP: what the browser reports for cached or worker
  // responses does not always list every header.
  const paths = [...new Set(seen.requests.filter((u) => new URL(u).origin === origin).map((u) => new URL(u).pathname))];
  const missing: string[] = [];
  for (const path of paths) {
    const h = (await request.get(path)).headers();
    if (!h['content-security-policy']?.includes("default-src 'self'") || h['cross-origin-embedder-policy'] !== 'require-corp' || h['cross-origin-opener-policy'] !== 'same-origin') missing.push(path);
  }
  console.log(
    `security headers: ${PAGES.length} pages, ${seen.requests.length} requests (${paths.length} paths, ${paths.filter((p) => p.endsWith('.wasm')).length} .wasm), ` +
      `${seen.violations.length} CSP violations, ${seen.offOrigin.length} off-origin, ${missing.length} paths without the headers`,
  );
  expect(seen.violations).toEqual([]);
  expect(seen.offOrigin).toEqual([]);
  expect(missing).toEqual([]);
});
