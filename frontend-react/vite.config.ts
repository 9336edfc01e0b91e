import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Library build of the React custom elements embedded in the Leptos pages: one ES module per
// widget (CSS inlined into its shadow root), written to ../public/widgets so the Rust server
// serves it. Every file is content-hashed; the build's manifest (widgets/manifest.json) names
// them for the server (app/src/ui/assets.rs), which serves them `immutable`. React, react-dom
// and the code the widgets share go into one chunk they all import (chunk-react-*.js), so a
// page showing several widgets loads React once. Rolldown always puts its own module interop helpers
// (under 1 kB) in a chunk of their own (chunk-rolldown-runtime-*.js), also shared.
const OUT_DIR = '../public/widgets';
const ENTRIES = {
  'dsa-form': 'src/dsa-form/index.tsx',
  'travel-calendar': 'src/travel-calendar/index.tsx',
  'travel-map': 'src/travel-map/index.tsx',
};
// Shared chunks sit at the top level, not in a subfolder: the server precompresses (.gz/.br)
// the files of public/widgets, not those of its subfolders.
const CHUNK_FILE_NAMES = 'chunk-[name]-[hash].js';
const MANIFEST = 'manifest.json';
/** What this build writes: its chunks and hashed entries (not the diagnostics bundle). */
const BUILT_FILE = new RegExp(`^(chunk|${Object.keys(ENTRIES).join('|')})-.+\\.js$`);

/** The output folder is not emptied (the server writes .gz/.br copies of the files there).
 * Once the new files are written, this removes what the build made stale: the compressed
 * copies of the files just rewritten, and the chunks of earlier builds with their copies. */
function removeStaleFiles(): Plugin {
  return {
    name: 'rosace-remove-stale-files',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      for (const file of await this.fs.readdir(dir)) {
        const copyOf = /\.(gz|br)$/.test(file) ? file.slice(0, -3) : null;
        const source = copyOf ?? file;
        const rewritten = copyOf !== null && source in bundle;
        const stale = BUILT_FILE.test(source) && !(source in bundle);
        if (rewritten || stale) await this.fs.unlink(`${dir}/${file}`);
      }
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), removeStaleFiles()],
  publicDir: false,
  // Library mode does not replace process.env.NODE_ENV; React needs it.
  // Build only: the tests must keep React's development build (act()).
  define: command === 'build' ? { 'process.env.NODE_ENV': '"production"' } : {},
  build: {
    lib: {
      entry: ENTRIES,
      formats: ['es'],
      fileName: (_format, name) => `${name}-[hash].js`,
    },
    outDir: OUT_DIR,
    manifest: MANIFEST,
    // Not emptied: see removeStaleFiles.
    emptyOutDir: false,
    target: 'es2020',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Library mode keeps whitespace in ES output (meant for re-bundling);
        // these files go straight to browsers, so minify them fully.
        minify: true,
        comments: false,
        chunkFileNames: CHUNK_FILE_NAMES,
        codeSplitting: {
          groups: [
            {
              // Every module two widgets or more use: React, react-dom, scheduler, shared helpers.
              name: 'react',
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // Process the widget CSS so `?inline` imports hold the real stylesheet.
    css: { include: [/\.css(\?|$)/] },
    restoreMocks: true,
    unstubGlobals: true,
  },
}));
