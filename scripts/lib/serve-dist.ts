/**
 * Serves the built app (dist/) on a free port of 127.0.0.1 with Vite's
 * preview server, which takes the cross-origin isolation headers from
 * vite.config.ts: without them the WASM backend runs single-threaded.
 */
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { preview, type PreviewServer } from 'vite';

export interface DistServer {
  url: string;
  /** Whether the page arrived with COOP/COEP, i.e. can be cross-origin isolated. */
  isolated: boolean;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createNetServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

/** Serves on `port` when given (it must be free), else on any free port. */
export async function serveDist(root: string, port?: number): Promise<DistServer> {
  port ??= await freePort();
  const server: PreviewServer = await preview({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'error',
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
  const url = `http://127.0.0.1:${port}`;
  const res = await fetch(`${url}/`);
  const isolated = res.headers.get('cross-origin-opener-policy') === 'same-origin' && res.headers.get('cross-origin-embedder-policy') === 'require-corp';
  return { url, isolated, close: () => server.close() };
}
