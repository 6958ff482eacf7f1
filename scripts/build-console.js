#!/usr/bin/env node
// Builds the web console (web/console → dist/console) when its sources changed since the last
// build, as bin/labdesk.js does for the server; `--force` builds anyway. Prints the initial
// JavaScript's size (the files index.html loads, gzip), which must stay within 250 kB.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const sources = path.join(root, 'web', 'console');
const out = path.join(root, 'dist', 'console');
const manifest = path.join(out, '.vite', 'manifest.json');
const INITIAL_JS_LIMIT = 250 * 1024;

/** The newest modification time under the given folders and files (0 when none exist). */
function newest(entries) {
  let latest = 0;
  for (const entry of entries) {
    let stat;
    try {
      stat = fs.statSync(entry);
    } catch {
      continue;
    }
    latest = Math.max(latest, stat.isDirectory() ? newest(fs.readdirSync(entry).map((name) => path.join(entry, name))) : stat.mtimeMs);
  }
  return latest;
}

/** Builds when a source changed since the last build (or `force`); false when over the size limit. */
function buildConsole({ force = false } = {}) {
  const builtAt = fs.existsSync(manifest) ? fs.statSync(manifest).mtimeMs : 0;
  if (!force && newest([sources, path.join(root, 'package-lock.json')]) <= builtAt) return true;

  process.stderr.write('labdesk: building the web console…\n');
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(sources, 'vite.config.mts')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );

  // What the first page load fetches: the entry and the chunks it imports statically.
  const chunks = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  const initial = new Set();
  const visit = (key) => {
    const chunk = chunks[key];
    if (!chunk || initial.has(chunk.file)) return;
    initial.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(chunks)) if (chunk.isEntry) visit(key);
  const gzip = [...initial].reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(out, file)), { level: 9 }).length, 0);
  const raw = [...initial].reduce((sum, file) => sum + fs.statSync(path.join(out, file)).size, 0);
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
  process.stderr.write(`labdesk: web console built: initial JavaScript ${kb(gzip)} gzip (${kb(raw)} raw), limit ${kb(INITIAL_JS_LIMIT)}\n`);
  if (gzip <= INITIAL_JS_LIMIT) return true;
  process.stderr.write('labdesk: the initial JavaScript is over its limit; load the heavy parts with import() per page\n');
  return false;
}

module.exports = { buildConsole };
if (require.main === module && !buildConsole({ force: process.argv.includes('--force') })) process.exit(1);
