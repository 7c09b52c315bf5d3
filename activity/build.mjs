// Builds the Activity into one folder the bot's web server serves under /activity/:
// index.html, app.js (the bundle, SDK included) and app.css. Nothing is fetched at run time.
// Usage: node build.mjs OUT_DIR   (the Makefile's `activity` target; OUT_DIR is replaced whole)
import {build} from 'esbuild';
import {copyFile, mkdir, rename, rm} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, '..', 'web', 'static', 'activity'));
const staging = `${out}.building`;

await rm(staging, {recursive: true, force: true});
await mkdir(staging, {recursive: true});
await build({
  entryPoints: {app: join(here, 'src', 'main.ts'), style: join(here, 'src', 'app.css')},
  outdir: staging,
  entryNames: '[name]',
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome109', 'firefox115', 'safari16'],
  legalComments: 'linked',
  logLevel: 'warning',
});
await rename(join(staging, 'style.css'), join(staging, 'app.css'));
await copyFile(join(here, 'src', 'index.html'), join(staging, 'index.html'));
// Swap the new folder in at once: a server reading the old one never sees half a build.
await rm(out, {recursive: true, force: true});
await rename(staging, out);
