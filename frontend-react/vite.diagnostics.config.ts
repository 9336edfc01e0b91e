import { defineConfig, type Plugin } from 'vite';

// The performance-consent diagnostics bundle (src/diagnostics: the `web-vitals` library,
// the metrics queue, error reports with breadcrumbs) as one self-contained ES module,
// public/widgets/diagnostics-<hash>.js, named for the server by its own manifest
// (widgets/diagnostics.manifest.json). Built on its own, after the widgets (package.json
// `build`): in their build, the helpers it shares with them (a class-field helper) would
// land in the React chunk and make every page with the consent load React.
const OUT_DIR = '../public/widgets';
const MANIFEST = 'diagnostics.manifest.json';
const BUILT_FILE = /^diagnostics-.+\.js$/;

/** The folder is not emptied (the server writes .gz/.br copies beside the built files):
 * this removes the bundles of earlier builds and the stale copies of the one it writes. */
function removeStaleFiles(): Plugin {
  return {
    name: 'rosace-remove-stale-diagnostics',
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

export default defineConfig({
  plugins: [removeStaleFiles()],
  publicDir: false,
  build: {
    lib: {
      entry: { diagnostics: 'src/diagnostics/index.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}-[hash].js`,
    },
    outDir: OUT_DIR,
    manifest: MANIFEST,
    emptyOutDir: false,
    // Class fields as they are (Chrome 72, Safari 14.1, Firefox 69): no helpers.
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: { output: { minify: true, comments: false } },
  },
});
