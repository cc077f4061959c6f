// The first page of each query as the search page gets it: search.js's engine under Node on a built site, a cold
// engine per query asking for a page (31 hits, the last one not shown) with the manifest's byte budget.
// Usage: node first-page.js <site dir> [queries.json] [--table] [--no-total]   (queries: [{q, target}]; by default
// first-page-queries.json beside this script, the issue-29 set of 24 queries of one to four words over the four targets)
// Output: JSON, per query: rows on the first page (at most 30), whether the run paused, the index files it read
// (manifest included) and their bytes on disk, and every match once the search is continued to its end; with --table,
// the same as a Markdown table. Times in a browser come from browser_timing.py.
'use strict';
const fs = require('fs');
const path = require('path');
const { engine } = require('./engine');
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const table = process.argv.includes('--table');
// --no-total skips continuing each search to its end (matches are then those of the first run).
const total = !process.argv.includes('--no-total');
const siteDir = args[0];
const queriesFile = args[1] || path.join(__dirname, 'first-page-queries.json');

function size(id) {
  const file = path.join(siteDir, 'search', `${id}.js`);
  return fs.existsSync(file) ? fs.statSync(file).size : 0;
}

(async () => {
  const queries = JSON.parse(fs.readFileSync(queriesFile, 'utf8'));
  const out = [];
  for (const query of queries) {
    const cold = engine(siteDir);
    await cold.ready();
    const first = new cold.Search(query.q, query.target, null);
    const started = process.hrtime.bigint();
    await first.fill(31);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const read = ['manifest'].concat(cold.read.filter((id) => id !== 'manifest' && fs.existsSync(path.join(siteDir, 'search', `${id}.js`))));
    const rows = Math.min(30, first.hits.length);
    const paused = first.paused;
    let matches = first.hits.length;
    if (total) {
      do { await first.fill(Infinity); } while (first.paused);
      matches = first.hits.length;
    }
    out.push({ q: query.q, target: query.target, rows, paused, matches, files: read.length,
      bytes: read.reduce((sum, id) => sum + size(id), 0), nodeMs: Math.round(ms) });
  }
  if (!table) { process.stdout.write(JSON.stringify(out, null, 1) + '\n'); return; }
  const lines = ['| query | target | rows | matches | first query: bytes (files) | paused |', '|---|---|---:|---:|---:|---|'];
  for (const r of out) {
    lines.push(`| \`${r.q}\` | ${r.target} | ${r.rows} | ${r.matches.toLocaleString('en-US')} | ${(r.bytes / 1000).toFixed(1)} kB (${r.files}) | ${r.paused ? 'paused' : ''} |`);
  }
  process.stdout.write(lines.join('\n') + '\n');
})();
