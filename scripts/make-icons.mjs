// Renders the app's icons (web app manifest, apple-touch-icon) from public/favicon.svg into public/icons/. Run once
// after changing the favicon and commit the PNGs: the build then needs no image tools, and `npm ci --omit=dev`
// installs stay as they are. Usage: node scripts/make-icons.mjs
import { mkdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';

const root = new URL('..', import.meta.url);
const svg = readFileSync(new URL('public/favicon.svg', root));
const out = new URL('public/icons/', root);
mkdirSync(out, { recursive: true });

/** The favicon's own green (also the manifest's theme colour): the maskable icon's bleed area. */
const GREEN = '#166534';

async function plain(size, name) {
  await sharp(svg, { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(new URL(name, out).pathname);
}

/**
 * A maskable icon may be cut to any shape inside its central 80% circle: the drawing is shrunk into that safe zone
 * on a full green square, so no launcher clips the road or the wheels.
 */
async function maskable(size, name) {
  const inner = Math.round(size * 0.7);
  const drawing = await sharp(svg, { density: (72 * inner) / 32 })
    .resize(inner, inner)
    .png()
    .toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: GREEN } })
    .composite([{ input: drawing, gravity: 'center' }])
    .png({ compressionLevel: 9 })
    .toFile(new URL(name, out).pathname);
}

await plain(192, 'icon-192.png');
await plain(512, 'icon-512.png');
await maskable(512, 'icon-maskable-512.png');
// iOS draws its own rounded corners over the whole square: the maskable drawing fits it best.
await maskable(180, 'apple-touch-icon.png');
console.log('icons written to public/icons/');
