// Runs templates/assets/search.js's engine under Node against an exported index and prints the answers.
// Usage: node engine-check.js <site dir> <queries.json>   (queries: [{q, target, board}])
// Output: JSON [[postId, …], …] in query order, every hit (not just the first page).
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const [siteDir, queriesFile] = process.argv.slice(2);
const script = path.join(__dirname, '..', '..', 'templates', 'assets', 'search.js');

const context = {
  console, Promise, Set, Map, Array, Object, String, JSON, Math, Intl, TextEncoder, URLSearchParams, Symbol, parseInt, Date,
  setTimeout,
};
context.window = context;
const app = { getAttribute: (name) => (name === 'data-index' ? 'search/' : ''), setAttribute() {} };
context.document = {
  body: { getAttribute: () => null },
  head: {
    appendChild(element) {
      setImmediate(() => {
        const file = path.join(siteDir, element.src);
        if (!fs.existsSync(file)) { element.onerror(); return; }
        vm.runInContext(fs.readFileSync(file, 'utf8'), context);
        element.onload();
      });
    },
  },
  getElementById: (id) => (id === 'search-app' ? app : null),
  createElement: () => ({}),
};
vm.createContext(context);
vm.runInContext(fs.readFileSync(script, 'utf8'), context);
const api = context.BoardArchiveSearch;

(async () => {
  await api.ready();
  const queries = JSON.parse(fs.readFileSync(queriesFile, 'utf8'));
  const answers = [];
  for (const query of queries) {
    const search = new api.Search(query.q, query.target, query.board || null);
    // Go on after every pause on the byte budget, as a reader clicking "search older posts" would.
    do { await search.fill(Infinity); } while (search.paused);
    const ids = [];
    for (const hit of search.hits) ids.push(api.field(await api.meta(hit.block, hit.position), 'postId'));
    answers.push(ids);
  }
  process.stdout.write(JSON.stringify(answers));
})();
