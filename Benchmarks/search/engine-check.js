// Runs templates/assets/search.js's engine under Node against an exported index and prints the answers.
// Usage: node engine-check.js <site dir> <queries.json>   (queries: [{q, target, board}])
// Output: JSON {answers, firstRuns}: per query in order, every hit's post id (not just the first page), and what a
// first run of the search page reads on a cold index (31 hits asked, a small byte budget): the index files
// it read (counted against the budget), whether it paused, and the files it fetched ahead but never read.
'use strict';
const fs = require('fs');
const path = require('path');
const { engine: siteEngine } = require('./engine');
const [siteDir, queriesFile] = process.argv.slice(2);

/** A fresh engine: its own page context, nothing loaded. */
function engine() { return siteEngine(siteDir); }

(async () => {
  const queries = JSON.parse(fs.readFileSync(queriesFile, 'utf8'));
  const api = engine();
  await api.ready();
  const answers = [];
  const firstRuns = [];
  for (const query of queries) {
    const search = new api.Search(query.q, query.target, query.board || null);
    // Go on after every pause on the byte budget, as a reader clicking "search older posts" would.
    do { await search.fill(Infinity); } while (search.paused);
    const ids = [];
    for (const hit of search.hits) ids.push(api.field(await api.meta(hit.block, hit.position), 'postId'));
    answers.push(ids);

    const cold = engine();
    await cold.ready();
    cold.setBudget(32000);  // SearchExportTests.firstRunBudget
    const first = new cold.Search(query.q, query.target, query.board || null);
    await first.fill(31);
    // Let what was fetched ahead finish loading before it is counted.
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Files that do not exist (empty buckets) are read as empty; the oracle's paths leave them out.
    const read = cold.read.filter((id) => id !== 'manifest' && fs.existsSync(path.join(siteDir, 'search', `${id}.js`)));
    firstRuns.push({ read: read.map((id) => `search/${id}.js`).sort(), paused: first.paused, unread: cold.loaded.filter((id) => !read.includes(id) && id !== 'manifest').length });
  }
  process.stdout.write(JSON.stringify({ answers, firstRuns }));
})();
