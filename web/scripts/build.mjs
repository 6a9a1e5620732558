// Builds the site that the binary embeds (called by build.rs; environment below):
//   type-check -> Vite client bundle -> Vite server bundle -> prerender every route to HTML -> brotli + gzip.
// TRUCKINS_BUILD_CONTENT   the content document written by build.rs
// TRUCKINS_BUILD_CONTENT_ES  its Spanish (content/es/), for the pages below /es
// TRUCKINS_BUILD_WORK_DIR  scratch space for the two bundles
// TRUCKINS_BUILD_SITE_DIR  the finished site (emptied first)
// TRUCKINS_BUILD_STYLE_HASH_FILE  where the CSP source of the inlined stylesheet goes ('sha256-...'), for the server
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
import { build } from 'vite';

const webDir = fileURLToPath(new URL('..', import.meta.url));
const workDir = process.env.TRUCKINS_BUILD_WORK_DIR ?? join(webDir, 'dist/work');
const siteDir = process.env.TRUCKINS_BUILD_SITE_DIR ?? join(webDir, 'dist/site');
const styleHashFile = process.env.TRUCKINS_BUILD_STYLE_HASH_FILE ?? join(webDir, 'dist/style-hash.txt');
const clientDir = join(workDir, 'client');
const serverDir = join(workDir, 'server');

const started = Date.now();
const step = (what) => console.log(`[web] ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

// 0. The test command builds twice at once (the tests' debug build and the release build), from the same inputs:
// the first to take the lock builds, and the other copies its site. The key is every input: the content documents,
// the web app's files (not its packages' or tests') and the content's images; the builds' output is the same for the
// same inputs. Entries live in node_modules/.cache (git-ignored, per clone); the three newest are kept.
const siteCacheDir = join(webDir, 'node_modules/.cache/truckins-site');
mkdirSync(siteCacheDir, { recursive: true });
const siteKey = inputsKey();
const siteLockFile = join(siteCacheDir, '.lock');
const siteLocked = await takeLock(siteLockFile);
const siteEntry = join(siteCacheDir, siteKey);
if (existsSync(join(siteEntry, 'style-hash.txt'))) {
  rmSync(siteDir, { recursive: true, force: true });
  cpSync(join(siteEntry, 'site'), siteDir, { recursive: true });
  mkdirSync(dirname(styleHashFile), { recursive: true });
  writeFileSync(styleHashFile, readFileSync(join(siteEntry, 'style-hash.txt')));
  const now = new Date();
  utimesSync(siteEntry, now, now);
  if (siteLocked) rmSync(siteLockFile, { force: true });
  step(`the site of a build before from the same inputs (${siteKey.slice(0, 12)}) copied into ${relative(webDir, siteDir)}`);
  process.exit(0);
}

// 1. A type error fails the build.
try {
  execFileSync(process.execPath, [join(webDir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: webDir,
    stdio: 'inherit',
  });
} catch {
  console.error('\n[web] TypeScript found the type errors listed above; fix them and build again.');
  process.exit(1);
}
step('type-checked');

// 2-4. Each language in turn (the Spanish pages below /es): vite.config.ts reads TRUCKINS_LOCALE for that build's
// content, contract module and words. Both builds' assets go into one assets/ folder: their names carry a hash of
// their bytes, so a chunk the two share (React) is one file, and the Spanish islands are files of their own.
const locales = [
  { code: 'en', content: process.env.TRUCKINS_BUILD_CONTENT },
  { code: 'es', content: process.env.TRUCKINS_BUILD_CONTENT_ES },
];
rmSync(siteDir, { recursive: true, force: true });
mkdirSync(siteDir, { recursive: true });
const files = {};
let inlineStyle;
for (const locale of locales) {
  process.env.TRUCKINS_LOCALE = locale.code;
  if (locale.code === 'es') process.env.TRUCKINS_BUILD_CONTENT_ES = locale.content ?? join(webDir, '.generated/content.es.json');
  const rendered = await buildLocale(locale.code);
  // Every page inlines the same stylesheet, whose hash the server's CSP allows: both languages must agree on it.
  if (inlineStyle !== undefined && rendered.inlineStyle !== inlineStyle) {
    throw new Error(`the ${locale.code} build's stylesheet differs from the English one; the CSP allows one`);
  }
  inlineStyle = rendered.inlineStyle;
  for (const [path, body] of Object.entries(rendered.files)) {
    if (files[path] !== undefined) throw new Error(`two languages write ${path}`);
    files[path] = body;
  }
}

async function buildLocale(code) {
  const clientOut = join(clientDir, code);
  const serverOut = join(serverDir, code);
  // 2. The browser bundle: the client entry, its islands and the stylesheet.
  const quiet = { logLevel: 'warn', configFile: join(webDir, 'vite.config.ts'), root: webDir };
  await build({ ...quiet, build: { outDir: clientOut, emptyOutDir: true } });
  step(`${code}: client bundle built`);

  // 3. The server bundle that renders pages; it emits the images that pages reference.
  await build({
    ...quiet,
    // One self-contained file: it runs from $OUT_DIR, where web/node_modules cannot be resolved.
    ssr: { noExternal: true },
    build: {
      outDir: serverOut,
      emptyOutDir: true,
      ssr: join(webDir, 'src/prerender.tsx'),
      ssrEmitAssets: true,
      manifest: false,
      rolldownOptions: { input: join(webDir, 'src/prerender.tsx') },
    },
  });
  step(`${code}: server bundle built`);

  // 4. Prerender.
  cpSync(join(clientOut, 'assets'), join(siteDir, 'assets'), { recursive: true });
  if (existsSync(join(serverOut, 'assets'))) {
    cpSync(join(serverOut, 'assets'), join(siteDir, 'assets'), { recursive: true });
  }
  const manifest = JSON.parse(readFileSync(join(clientOut, '.vite/manifest.json'), 'utf8'));
  const { renderSite, inlineStyle } = await import(pathToFileURL(join(serverOut, 'prerender.js')).href);
  try {
    const files = await renderSite(manifest);
    step(`${code}: prerendered ${Object.keys(files).length} files`);
    return { files, inlineStyle };
  } catch (error) {
    // Content that does not fit (a title too long for a search result, a text without its translation, ...) is
    // reported as a list, not a stack.
    console.error(`\n[web] ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}

// Every page inlines the stylesheet; the Content-Security-Policy allows exactly that text by its hash rather than
// allowing inline styles at all. A page that inlined anything else would be unstyled, so the build stops first.
const styleHash = `sha256-${createHash('sha256').update(inlineStyle, 'utf8').digest('base64')}`;
for (const [path, body] of Object.entries(files)) {
  if (path.endsWith('.html') && (!body.includes(`<style>${inlineStyle}</style>`) || body.split('<style').length !== 2)) {
    throw new Error(`${path} does not inline the stylesheet as the CSP hash expects`);
  }
  const target = join(siteDir, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, body);
}
mkdirSync(dirname(styleHashFile), { recursive: true });
writeFileSync(styleHashFile, styleHash);
step(`wrote ${Object.keys(files).length} files, stylesheet inlined (${(inlineStyle.length / 1024).toFixed(1)} kB, ${styleHash})`);

// 5. Precompress every text file; the server picks the variant the browser accepts. Brotli at its best quality is
// the slowest step of the build (about 1 MB/s), so each file is compressed on libuv's threads (both cores), and the
// result is kept by the SHA-256 of the file's bytes: the release build after the test build, and a rebuild after an
// edit, compress only the files that changed. The cache lives in node_modules/.cache (git-ignored, per clone);
// entries unused for 30 days are removed.
const cacheDir = join(webDir, 'node_modules/.cache/truckins-precompressed');
mkdirSync(cacheDir, { recursive: true });
const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } };
const cached = async (bytes, key, compress) => {
  const entry = join(cacheDir, key);
  // Another build (the test command runs two at once) may be removing or replacing the entry: then compress.
  try {
    const found = readFileSync(entry);
    if (found.length > 0) {
      const now = new Date();
      utimesSync(entry, now, now);
      return found;
    }
  } catch {
    // Not there (yet): made below.
  }
  const made = await compress(bytes);
  // Written whole under another name, then renamed: a build stopped halfway never leaves half an entry.
  const partial = `${entry}.${process.pid}`;
  writeFileSync(partial, made);
  renameSync(partial, entry);
  return made;
};
const compressible = /\.(html|js|css|svg|json|xml|txt|webmanifest)$/;
// One build compresses at a time: the test command runs the debug and the release build together, and the second
// then finds every file in the cache instead of compressing it again.
const lockFile = join(cacheDir, '.lock');
const locked = await takeLock(lockFile);
let plain = 0;
let brotli = 0;
let reused = 0;
await Promise.all(
  [...walk(siteDir)]
    .filter((file) => compressible.test(file))
    .map(async (file) => {
      const bytes = readFileSync(file);
      // The settings are part of the key: other settings make other files.
      const key = createHash('sha256').update('brotli 11, gzip 9\n').update(bytes).digest('hex');
      if (existsSync(join(cacheDir, `${key}.br`))) reused++;
      const [br, gz] = await Promise.all([
        cached(bytes, `${key}.br`, (b) => brotliAsync(b, { ...brotliOptions, params: { ...brotliOptions.params, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } })),
        cached(bytes, `${key}.gz`, (b) => gzipAsync(b, { level: 9 })),
      ]);
      if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
      if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
      plain += bytes.length;
      brotli += Math.min(br.length, bytes.length);
    }),
);
if (locked) rmSync(lockFile, { force: true });
const month = 30 * 24 * 3600 * 1000;
for (const name of readdirSync(cacheDir)) {
  const entry = join(cacheDir, name);
  // Gone meanwhile (the other build renamed its partial file): nothing to remove.
  const found = statSync(entry, { throwIfNoEntry: false });
  if (found && Date.now() - found.mtimeMs > month) rmSync(entry, { force: true });
}
step(`compressed ${(plain / 1024).toFixed(0)} kB of text to ${(brotli / 1024).toFixed(0)} kB (brotli; ${reused} files unchanged since a build before) into ${relative(webDir, siteDir)}`);

// The site kept for the next build from the same inputs: written whole under another name, then renamed.
const partialEntry = `${siteEntry}.${process.pid}`;
rmSync(partialEntry, { recursive: true, force: true });
cpSync(siteDir, join(partialEntry, 'site'), { recursive: true });
writeFileSync(join(partialEntry, 'style-hash.txt'), styleHash);
rmSync(siteEntry, { recursive: true, force: true });
renameSync(partialEntry, siteEntry);
const older = readdirSync(siteCacheDir)
  .filter((name) => /^[0-9a-f]{64}$/.test(name))
  .map((name) => ({ name, at: statSync(join(siteCacheDir, name)).mtimeMs }))
  .sort((a, b) => b.at - a.at)
  .slice(3);
for (const { name } of older) rmSync(join(siteCacheDir, name), { recursive: true, force: true });
if (siteLocked) rmSync(siteLockFile, { force: true });

/** The SHA-256 of everything the site is built from: this script's environment's content documents, every file of
 * the web app but its packages, tests and outputs, and the content's images (paths and bytes, in a fixed order). */
function inputsKey() {
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  for (const variable of ['TRUCKINS_BUILD_CONTENT', 'TRUCKINS_BUILD_CONTENT_ES']) {
    const file = process.env[variable];
    hash.update(`${variable}\n`).update(file && existsSync(file) ? readFileSync(file) : '');
  }
  const skipped = new Set(['node_modules', 'dist', 'e2e', 'test-results', 'playwright-report']);
  const inputs = [
    ...[...walk(webDir, skipped)].map((file) => ({ file, name: relative(webDir, file) })),
    ...[...walk(join(webDir, '../content/images'))].map((file) => ({ file, name: `content/images/${relative(join(webDir, '../content/images'), file)}` })),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { file, name } of inputs) hash.update(`\n${name}\n`).update(readFileSync(file));
  return hash.digest('hex');
}

/** Takes the cache's lock (a file holding the holder's process id); false after 10 minutes without it. */
async function takeLock(file) {
  const started = Date.now();
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return true;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(file, 'utf8'));
    } catch {
      continue; // released meanwhile
    }
    // A holder that is gone (a build stopped halfway) leaves its lock behind: taken over.
    if (!isAlive(holder)) {
      rmSync(file, { force: true });
      continue;
    }
    if (Date.now() - started > 10 * 60_000) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function* walk(dir, skipped = new Set()) {
  for (const name of readdirSync(dir)) {
    if (skipped.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path, skipped);
    else yield path;
  }
}
