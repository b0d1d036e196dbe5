/**
 * Lets tfjs-backend-wasm run on the threads the app asks for, once bundled.
 *
 * - tfjs hands each pthread worker the backend's JavaScript as
 *   `new Blob(['var WasmBackendModuleThreadedSimd = ' + factory.toString()])`;
 *   after bundling and minifying, that function's source refers to names of
 *   the bundle around it, and every worker failed with "e is not defined"
 *   (the blob would also need `blob:` in the CSP's script-src). Instead the
 *   unbundled emscripten script ships as a file of its own and the workers
 *   import it by URL, from this origin.
 * - tfjs's C++ caps the thread count at half of navigator.hardwareConcurrency
 *   (it assumes two hyperthreads per core), which leaves a 2-core machine on
 *   one thread whatever setThreadsCount asks. The core count it reads is
 *   doubled, so the cap is the logical core count (and tfjs's own cap of 8).
 */
import type { Plugin } from 'vite';

interface Patch {
  file: RegExp;
  find: RegExp;
  replace: (code: string) => string;
}

const SCRIPT_URL = '__coevoThreadedScriptUrl';
const BLOB_OF_SOURCE = /new Blob\(\[`var WasmBackendModuleThreadedSimd = ` \+\s*wasmFactoryThreadedSimd\.toString\(\)\],\s*\{ type: 'text\/javascript' \}\)/;
const CORE_COUNT = 'return navigator["hardwareConcurrency"]}';

const PATCHES: Patch[] = [
  {
    file: /@tensorflow[\\/]tfjs-backend-wasm[\\/]dist[\\/]backend_wasm\.js$/,
    find: BLOB_OF_SOURCE,
    // Absolute, because the worker resolves it from a blob: URL.
    replace: (code) =>
      `import ${SCRIPT_URL} from '../wasm-out/tfjs-backend-wasm-threaded-simd.js?url';\n` +
      code.replace(BLOB_OF_SOURCE, `new URL(${SCRIPT_URL}, self.location.href).href`),
  },
  {
    file: /@tensorflow[\\/]tfjs-backend-wasm[\\/]wasm-out[\\/]tfjs-backend-wasm-threaded-simd\.js$/,
    find: /return navigator\["hardwareConcurrency"\]\}/,
    replace: (code) => code.replace(CORE_COUNT, 'return 2*navigator["hardwareConcurrency"]}'),
  },
];

export function wasmThreads(): Plugin {
  return {
    name: 'coevo-wasm-threads',
    transform(code, id) {
      // `?url` and other queried imports of these files are not their code.
      if (id.includes('?')) return null;
      const patch = PATCHES.find((p) => p.file.test(id));
      if (!patch) return null;
      if (!patch.find.test(code)) {
        this.error(`tfjs-backend-wasm changed: ${id} no longer contains ${patch.find.source} (scripts/lib/vite-wasm-threads.ts)`);
      }
      return { code: patch.replace(code), map: null };
    },
  };
}
