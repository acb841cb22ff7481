// Builds the web table into bot/activity/static/ (or the folder after --outdir): index.html,
// assets/app-<hash>.js and assets/app-<hash>.css. Content-hashed names, since Discord's proxy
// strips cache headers from HTML; esbuild's output is deterministic, so tests/test_activity_build.py
// can check that the committed files are what this source builds, byte for byte.
// `--mock` builds the tests' client instead: with Discord's SDK mock (src/mock.ts, `?mock=`),
// which the production build leaves out (MOCK_SDK false: the branch and the module dropped).
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const flag = process.argv.indexOf("--outdir");
const outdir = resolve(flag >= 0 ? process.argv[flag + 1] : join(here, "..", "bot", "activity", "static"));
const assets = join(outdir, "assets");
const mock = process.argv.includes("--mock");

const result = await esbuild.build({
  absWorkingDir: here,
  entryPoints: { app: "src/main.ts" },
  bundle: true,
  minify: true,
  format: "esm",
  // What Discord's clients run: recent Chromium (desktop, Android) and Safari (iOS).
  target: ["es2020", "chrome100", "safari15"],
  // Named by their content below (esbuild's [hash] also covers the inputs' paths, which a
  // symlinked node_modules changes).
  entryNames: "[name]",
  outdir: assets,
  define: { MOCK_SDK: mock ? "true" : "false" },
  write: false,
  legalComments: "eof",
  logLevel: "warning",
});

await mkdir(assets, { recursive: true });
const names = {};
for (const file of result.outputFiles) {
  const ext = file.path.endsWith(".css") ? "css" : "js";
  const hash = createHash("sha256").update(file.contents).digest("hex").slice(0, 12);
  const name = `${basename(file.path, `.${ext}`)}-${hash}.${ext}`;
  names[ext] = name;
  await writeFile(join(assets, name), file.contents);
  // Precompressed beside it, served by what the client accepts (bot/activity/__init__.py):
  // the script is a third of its size gzipped, less in brotli. Both deterministic (gzip's
  // header carries no time here), so the build test still compares byte for byte.
  await writeFile(join(assets, `${name}.gz`), gzipSync(file.contents, { level: 9 }));
  const brotli = {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: file.contents.length,
  };
  await writeFile(join(assets, `${name}.br`), brotliCompressSync(file.contents, { params: brotli }));
}
// Older builds' assets go: the folder holds exactly what this build wrote.
const wrote = Object.values(names).flatMap((name) => [name, `${name}.gz`, `${name}.br`]);
for (const name of await readdir(assets)) {
  if (!wrote.includes(name)) await rm(join(assets, name));
}
const template = await readFile(join(here, "src", "index.html"), "utf8");
// One line: the line breaks between tags are text nodes nobody reads (the page has no text of
// its own; render.ts fills the regions), and the served page is the smaller for it.
const page = template
  .replace("%CSS%", `assets/${names.css}`)
  .replace("%JS%", `assets/${names.js}`)
  .split("\n")
  .map((line) => line.trim())
  .join("");
await writeFile(join(outdir, "index.html"), `${page}\n`);
console.log(`built ${outdir}: index.html, assets/${names.js}, assets/${names.css}`);
