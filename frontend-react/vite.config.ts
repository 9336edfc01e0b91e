import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Library build of the React custom elements embedded in the Leptos pages.
// One self-contained ES module per widget (React bundled in, CSS inlined into
// the shadow root), written to ../public/widgets so the Rust server serves it.
export default defineConfig(({ command }) => ({
  plugins: [react()],
  publicDir: false,
  // Library mode does not replace process.env.NODE_ENV; React needs it.
  // Build only: the tests must keep React's development build (act()).
  define: command === 'build' ? { 'process.env.NODE_ENV': '"production"' } : {},
  build: {
    lib: {
      entry: 'src/dsa-form/index.tsx',
      formats: ['es'],
      fileName: () => 'dsa-form.js',
    },
    outDir: '../public/widgets',
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    rolldownOptions: {
      // Library mode keeps whitespace in ES output (meant for re-bundling);
      // this file goes straight to browsers, so minify it fully.
      output: { minify: true, comments: false },
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
