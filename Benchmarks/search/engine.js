// templates/assets/search.js's engine under Node, loading the index files of a built site as the page would (each
// shard a classic script run in the page's context, a missing one an error event): shared by engine-check.js and
// first-page.js.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
// BOARDARCHIVE_SEARCH_JS names another search.js (an earlier version, to measure before and after a change).
const script = fs.readFileSync(process.env.BOARDARCHIVE_SEARCH_JS || path.join(__dirname, '..', '..', 'templates', 'assets', 'search.js'), 'utf8');

/** A fresh engine over the site in `siteDir`: its own page context, nothing loaded. */
function engine(siteDir) {
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
  vm.runInContext(script, context);
  return context.BoardArchiveSearch;
}

module.exports = { engine };
