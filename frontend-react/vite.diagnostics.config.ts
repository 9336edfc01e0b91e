import { defineConfig, type Plugin } from 'vite';

// The performance-consent diagnostics bundle (src/diagnostics: the `web-vitals` library,
// the metrics queue, error reports with breadcrumbs) as one self-contained ES module,
// public/widgets/diagnostics.js. Built on its own, after the widgets (package.json
// `build`): in their build, the helpers it shares with them (a class-field helper) would
// land in the React chunk and make every page with the consent load React.
const OUT_DIR = '../public/widgets';
const FILE = 'diagnostics.js';

/** The server writes .gz/.br copies beside the built files: drop this file's stale ones. */
function removeStaleCopies(): Plugin {
  return {
    name: 'rosace-remove-stale-diagnostics-copies',
    apply: 'build',
    async writeBundle(options) {
      const dir = options.dir;
      if (!dir) return;
      for (const file of await this.fs.readdir(dir)) {
        if (file === `${FILE}.gz` || file === `${FILE}.br`) await this.fs.unlink(`${dir}/${file}`);
      }
    },
  };
}

export default defineConfig({
  plugins: [removeStaleCopies()],
  publicDir: false,
  build: {
    lib: {
      entry: { diagnostics: 'src/diagnostics/index.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    outDir: OUT_DIR,
    emptyOutDir: false,
    // Class fields as they are (Chrome 72, Safari 14.1, Firefox 69): no helpers.
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: { output: { minify: true, comments: false } },
  },
});
