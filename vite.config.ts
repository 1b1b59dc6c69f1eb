import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Writes .br and .gz beside every text asset so the server sends them without compressing per request. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'ruralroute-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg|json|txt|webmanifest)$/.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': new URL('./src/client', import.meta.url).pathname } },
  build: { outDir: 'dist/client', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  server: {
    port: 5173,
    // The API runs on PORT (3000) under `npm run dev`; the proxy keeps the browser on one origin.
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 3000}` } },
  },
});
