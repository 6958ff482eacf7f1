// Empties dist/ before tsc writes it: tsc leaves the output of deleted or moved sources behind,
// and a stale module there can still be loaded. The console's build (dist/console) stays: its
// script rebuilds it only when its sources changed.
const fs = require('node:fs');
const path = require('node:path');

const dist = path.join(__dirname, '..', 'dist');
for (const entry of fs.existsSync(dist) ? fs.readdirSync(dist) : []) {
  if (entry !== 'console') fs.rmSync(path.join(dist, entry), { recursive: true, force: true });
}
