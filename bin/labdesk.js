#!/usr/bin/env node
// The `labdesk` command from a checkout: runs the compiled CLI, compiling it (and building the web
// console) first when a source file changed since the last build (so `npm start` and `npx labdesk`
// cost no build when nothing did).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const main = path.join(root, 'dist', 'src', 'cli', 'main.js');
const SOURCES = ['src', 'facade', 'migrations', 'bench', 'tsconfig.json', 'package.json'];

/** The newest modification time under the given files and folders (0 when none exist). */
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

/** When the CLI was last compiled: every build rewrites it. */
function builtAt() {
  try {
    return fs.statSync(main).mtimeMs;
  } catch {
    return 0;
  }
}

const compiler = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const built = builtAt();
if (fs.existsSync(compiler) && newest(SOURCES.map((entry) => path.join(root, entry))) > built) {
  process.stderr.write(built ? 'labdesk: sources changed since the last build; compiling…\n' : 'labdesk: compiling (first run)…\n');
  execFileSync(process.execPath, [compiler, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
}
// The web console, likewise, when its sources changed (vite comes with the dev dependencies).
if (fs.existsSync(path.join(root, 'node_modules', 'vite'))) require('../scripts/build-console.js').buildConsole();
if (!fs.existsSync(main)) {
  process.stderr.write('labdesk: dist/ is missing and TypeScript is not installed: run npm install first\n');
  process.exit(1);
}
require(main);
