import { defineConfig, type Plugin } from 'vite';

// The page modules (src/pages: every browser script outside WASM and the widgets) as
// content-hashed ES modules in ../public/js, with Vite's manifest (js/manifest.json) that
// the server reads to name them in pages (app/src/ui/assets.rs) and to serve them
// `immutable`. What they share (src/lib) goes into hashed chunks.
const OUT_DIR = '../public/js';
const MANIFEST = 'manifest.json';
export const ENTRIES = {
  shell: 'src/pages/shell.ts',
  auth: 'src/pages/auth.ts',
  'travel-offers': 'src/pages/travel-offers.ts',
  ads: 'src/pages/ads.ts',
  'ads-demo': 'src/pages/ads-demo.ts',
  backoffice: 'src/pages/backoffice.ts',
  'api-docs': 'src/pages/api-docs.ts',
  print: 'src/pages/print.ts',
};

/** The advertising loader and the demo partner's script keep fixed names: an ad blocker
 * recognises a partner's script by its address, and the browser tests block it by that
 * address to play one. They are served `no-cache` (revalidated), not `immutable`. */
const FIXED_NAMES = new Set(['ads', 'ads-demo']);

/** The folder is not emptied (the server writes .gz/.br copies beside the files): this
 * removes the files of the previous build that this one no longer makes, and the copies of
 * every file it writes. */
function removeStaleFiles(): Plugin {
  let before: string[] = [];
  return {
    name: 'rosace-remove-stale-page-modules',
    apply: 'build',
    async renderStart(options) {
      try {
        const text = String(await this.fs.readFile(`${options.dir}/${MANIFEST}`, { encoding: 'utf8' }));
        before = Object.values(JSON.parse(text) as Record<string, { file: string }>).map((c) => c.file);
      } catch {
        before = [];
      }
    },
    async writeBundle(options, bundle) {
      for (const file of before) {
        const names = file in bundle ? [`${file}.gz`, `${file}.br`] : [file, `${file}.gz`, `${file}.br`];
        for (const name of names) await this.fs.unlink(`${options.dir}/${name}`).catch(() => undefined);
      }
    },
  };
}

export default defineConfig({
  plugins: [removeStaleFiles()],
  publicDir: false,
  build: {
    outDir: OUT_DIR,
    emptyOutDir: false,
    manifest: MANIFEST,
    // No preload helper: the modules import each other statically.
    modulePreload: false,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      input: ENTRIES,
      output: {
        format: 'es',
        entryFileNames: (chunk) => (FIXED_NAMES.has(chunk.name) ? '[name].js' : '[name]-[hash].js'),
        chunkFileNames: 'chunk-[name]-[hash].js',
        minify: true,
        comments: false,
      },
    },
  },
});
