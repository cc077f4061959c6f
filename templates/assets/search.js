/* BoardArchive search page: queries the sharded index under search/ with no server.
 *
 * Works from file://: the index is classic <script> files that call BoardArchiveSearch.load(id, data, bytes);
 * this script injects them on demand (no fetch, XHR, modules, workers or WebAssembly). The algorithm is the
 * one SearchIndexReader implements in Swift (tests prove that one equals a brute-force scan):
 *   - normalise: NFKC, case folding twice (upper, Σ → σ to switch off the final-sigma rule, lower), NFKC;
 *   - split the query at \s; every word is required; a word of 1 code point is looked up as a unigram, a
 *     longer one as all its bigrams; candidates of words longer than 2 are verified against the text;
 *   - blocks are read in listing order (notices first, then newest first), one after another while they give
 *     hits; once the blocks read since the last hit hold a full block's posts (the largest block's count), the block
 *     directory is read and only the blocks holding every token follow;
 *   - a run of the search pauses before a step whose files (not yet loaded, each at the layout's estimate of its kind)
 *     would take it past the layout's budget in bytes (every file declares its size); the page offers to go on
 *     searching older posts, so a rare word never loads the whole index; a run always takes its first step, so continuing makes progress;
 *   - rows are built with DOM APIs only (createElement, textContent); never innerHTML with data.
 */
(function () {
  'use strict';
  var app = document.getElementById('search-app');
  if (!app) { return; }

  function text(key) { return app.getAttribute('data-s-' + key) || ''; }
  var PAGE = 30;
  var STORAGE_KEY = 'boardarchive.recentSearches';
  var TARGETS = ['all', 'title', 'contents', 'writer'];
  // The fields a target searches, in the order hits are verified; their posting-list positions come from the manifest.
  var TARGET_FIELDS = { all: ['title', 'writer', 'contents'], title: ['title'], contents: ['contents'], writer: ['writer'] };

  /* ---- Loading shards ------------------------------------------------------------------------------ */
  var shards = Object.create(null);   // id -> payload of every shard a search has read (prototype-free: any key is safe)
  var fetched = Object.create(null);  // id -> [payload, bytes] of every shard loaded, read yet or only fetched ahead
  var waiting = Object.create(null);  // id -> promise of a load under way
  var loadedIds = [];   // every shard id loaded, in order
  var requestedIds = [];  // every shard id asked for, in order, whether it came in yet or not (read by the benchmark)
  var readIds = [];     // every shard id read, in order (read by the engine check)
  var loadedBytes = 0;  // the declared sizes of every shard read: what the byte budget counts
  var largestFetched = 0;  // the largest index file loaded but the manifest
  // What fetching ahead expects a file not loaded yet to weigh: the largest so far, at least the largest of the
  // layout's `estimates` (erring high, it fetches less than the run may read rather than more).
  function likelySize() {
    var largest = largestFetched;
    Object.keys(LAYOUT.estimates).forEach(function (kind) { largest = Math.max(largest, LAYOUT.estimates[kind]); });
    return largest;
  }
  // The index's record layout and byte budget are the manifest's `layout` (SearchRecordLayout in the builder):
  // `meta` (a metadata record's field positions), `postings` (the posting lists' order), `budget` (bytes one run of a
  // search may load before it pauses), `estimates` (what an index file not loaded yet is expected to weigh, by kind:
  // `directory`, `postings`, `meta`, `contents`).
  var LAYOUT = null;
  // How the index spells its files, the manifest's `format` (SearchIndexFormat in the builder): `hash` (FNV-1a offset
  // basis and prime), posting lists' `alphabet`, `bitmap` marker, `bitmapBits` and `digitBits`, their `separator`, the
  // `boardToken` prefix, `blocks` (prefixes and numbering) and `shards` (shard id parts). None is spelt here.
  var FORMAT = null;
  var budgetOverride = 0;  // a budget set by the benchmark, else the manifest's
  function budgetBytes() { return budgetOverride || LAYOUT.budget; }
  function field(record, name) { return record[LAYOUT.meta[name]]; }
  function postingCount() { return Object.keys(LAYOUT.postings).length; }
  window.BoardArchiveSearch = {
    load: function (id, data, bytes) {
      fetched[id] = [data, bytes > 0 ? bytes : 0];
      if (id !== 'manifest') { largestFetched = Math.max(largestFetched, fetched[id][1]); }
    },
    loaded: loadedIds,
    read: readIds,
    setBudget: function (bytes) { budgetOverride = bytes; }
  };
  var base = app.getAttribute('data-index') || 'search/';

  /* Loads a shard's script once; resolves to [payload, bytes], [null, 0] for a file that does not exist. */
  function fetchShard(id) {
    if (fetched[id]) { return Promise.resolve(fetched[id]); }
    if (waiting[id]) { return waiting[id]; }
    requestedIds.push(id);
    waiting[id] = new Promise(function (resolve) {
      var script = document.createElement('script');
      script.src = base + id + '.js';
      script.charset = 'utf-8';
      script.onload = function () { loadedIds.push(id); fetched[id] = fetched[id] || [null, 0]; resolve(fetched[id]); };
      script.onerror = function () { fetched[id] = [null, 0]; resolve(fetched[id]); };  // an empty bucket has no file
      document.head.appendChild(script);
    });
    return waiting[id];
  }

  /* A shard a search reads: loaded if need be (or already fetched ahead), its bytes counted the first time it is read.
   * The budget counts reads, not loads, so fetching ahead changes when a search waits, never where it pauses. */
  function loadShard(id) {
    if (Object.prototype.hasOwnProperty.call(shards, id)) { return Promise.resolve(shards[id]); }
    return fetchShard(id).then(function (entry) {
      if (!Object.prototype.hasOwnProperty.call(shards, id)) { shards[id] = entry[0]; loadedBytes += entry[1]; readIds.push(id); }
      return shards[id];
    });
  }

  /* ---- Text ---------------------------------------------------------------------------------------- */
  function fold(value) { return value.toUpperCase().replace(/\u03A3/g, '\u03C3').toLowerCase(); }
  // Folding twice reaches a fixed point (ẞ → ß → ss), as TextNormalizer does.
  function normalize(value) { return fold(fold(String(value).normalize('NFKC'))).normalize('NFKC'); }
  // JavaScript's own `\s`, which TextNormalizer.isWhitespace mirrors.
  var WHITESPACE = /\s/;

  function queryWords(query) {
    var seen = Object.create(null), words = [];
    String(query).split(/\s+/).forEach(function (raw) {
      if (!raw) { return; }
      var word = normalize(raw);
      if (word && !seen[word]) { seen[word] = true; words.push(word); }
    });
    return words;
  }

  /* The plan of a normalised word: tokens (unigram, or bigrams covering whitespace-free pieces) and exactness. */
  function plan(word) {
    var tokens = Object.create(null), points = Array.from(word), piece = [];
    function flush() {
      if (piece.length === 1) { tokens[piece[0]] = true; }
      // Every bigram of the piece: a missing middle pair ("울학" of "서울학교") rules a block out at once.
      for (var i = 0; i + 1 < piece.length; i++) { tokens[piece[i] + piece[i + 1]] = true; }
      piece = [];
    }
    points.forEach(function (point) { if (WHITESPACE.test(point)) { flush(); } else { piece.push(point); } });
    flush();
    return { word: word, tokens: Object.keys(tokens), exact: points.length <= 2 && !WHITESPACE.test(word) };
  }

  function utf8(value) {
    if (typeof TextEncoder !== 'undefined') { return new TextEncoder().encode(value); }
    return unescape(encodeURIComponent(value)).split('').map(function (c) { return c.charCodeAt(0); });
  }

  function bucket(token, count) {
    var hash = FORMAT.hash[0], bytes = utf8(token);
    for (var i = 0; i < bytes.length; i++) { hash = Math.imul(hash ^ bytes[i], FORMAT.hash[1]) >>> 0; }
    return hash & (count - 1);
  }

  function decode(list) {
    var out = [], i, value, alphabet = FORMAT.alphabet, bits = FORMAT.bitmapBits, base = 1 << FORMAT.digitBits;
    if (!list) { return out; }
    if (list.charAt(0) === FORMAT.bitmap) {
      for (i = 1; i < list.length; i++) {
        value = alphabet.indexOf(list.charAt(i));
        for (var bit = 0; bit < bits; bit++) { if (value & (1 << bit)) { out.push((i - 1) * bits + bit); } }
      }
      return out;
    }
    var previous = -1, accumulator = 0;
    for (i = 0; i < list.length; i++) {
      value = alphabet.indexOf(list.charAt(i));
      if (value < 0) { continue; }
      accumulator = accumulator * base + (value & (base - 1));
      if (value < base) { previous += accumulator + 1; out.push(previous); accumulator = 0; }
    }
    return out;
  }

  /* A flat [token, value, token, value…] shard as a lookup table (built once per shard). */
  var tables = Object.create(null);
  function lookup(id, payload, token) {
    if (!payload) { return null; }
    var table = tables[id];
    if (!table) {
      table = tables[id] = Object.create(null);
      for (var i = 0; i + 1 < payload.length; i += 2) { table[payload[i]] = payload[i + 1]; }
    }
    return table[token] === undefined ? null : table[token];
  }

  /* ---- The engine ---------------------------------------------------------------------------------- */
  var manifest = null;

  function blockNumber(id) {
    var blocks = FORMAT.blocks, notice = id.indexOf(blocks.notice) === 0;
    var n = parseInt(id.slice((notice ? blocks.notice : blocks.plain).length), 10);
    return n * blocks.stride + (notice ? 1 : 0);
  }

  /* The ids of the shards a step reads: the format's spelling, shared by the loaders and the budget's plan. */
  function directoryId(token) { return FORMAT.shards.directory + bucket(token, manifest.d); }
  function postingId(blockIndex, token) { var block = manifest.blocks[blockIndex]; return block[0] + FORMAT.shards.postings + bucket(token, block[2]); }
  function metaId(blockIndex, position) { return manifest.blocks[blockIndex][0] + FORMAT.shards.meta + Math.floor(position / manifest.m); }
  /* A post's head (its metadata record and the first piece of its contents), named by its place in its group of
   * posts (the posts of one metadata shard); its further pieces, by the head's id and their number. */
  function headId(blockIndex, position) {
    return manifest.blocks[blockIndex][0] + FORMAT.shards.contents + Math.floor(position / manifest.m) + FORMAT.shards.part + (position % manifest.m);
  }
  function contentsIds(blockIndex, position, record) {
    var head = headId(blockIndex, position), ids = [head];
    for (var k = 1; record && k < field(record, 'contentsCount'); k++) { ids.push(head + FORMAT.shards.part + k); }
    return ids;
  }
  /* Whether a word may be in the post's contents (the contents are searched and hold the word's grams): then its head
   * is read for its record too, not its metadata shard. */
  function inContents(fields, sets, position) {
    var list = LAYOUT.postings.contents;
    return fields.indexOf(list) >= 0 && sets.some(function (s) { return s[list].has(position); });
  }

  function postingLists(blockIndex, token) {
    var id = postingId(blockIndex, token);
    return loadShard(id).then(function (payload) {
      var value = lookup(id, payload, token);
      var parts = value === null ? [] : value.split(FORMAT.separator), lists = [];
      for (var i = 0; i < postingCount(); i++) { lists.push(decode(parts[i])); }
      return lists;
    });
  }

  /* A post's metadata record: from its head when `viaHead` (a post whose contents are read anyway), else from its
   * group's metadata shard. */
  function meta(blockIndex, position, viaHead) {
    if (viaHead) { return loadShard(headId(blockIndex, position)).then(function (head) { return head ? head[0] : null; }); }
    var id = metaId(blockIndex, position);
    return loadShard(id).then(function (records) { return records ? records[position % manifest.m] : null; });
  }

  /* The contents of a post, read piece by piece (a piece a shard, in order) until `enough(text, normalized, from)`
   * says the text so far settles what is asked, or to its end; resolves to {text, normalized, complete}. The builder
   * cuts a post's contents only between two code points no normalisation or grapheme rule joins (a piece whose cut
   * is not such a place has a third element in its record), so the text so far normalises to the start of the
   * whole's normal form: a word found in it is in the whole. `from` is where the normal form grew this time. */
  function contentsUntil(blockIndex, position, enough) {
    return meta(blockIndex, position, true).then(function (record) {
      var ids = contentsIds(blockIndex, position, record), text = '', normalized = '', clean = true, k = 0;
      function next() {
        if (k === ids.length) {
          return { text: text, normalized: clean ? normalized : normalize(text), complete: true };
        }
        // The head is [record, text], a further piece [text]; one element more marks a piece cut where no clean place came.
        var at = k === 0 ? 1 : 0;
        return loadShard(ids[k++]).then(function (payload) {
          var from = normalized.length;
          if (payload && payload.length > at) {
            text += payload[at];
            normalized += normalize(payload[at]);
            if (payload.length > at + 1) { clean = false; }
          }
          if (k < ids.length && clean && enough(text, normalized, from)) { return { text: text, normalized: normalized, complete: false }; }
          return next();
        });
      }
      return next();
    });
  }

  /* Whether normalised `word` is in a post's contents, read until it is found. */
  function contentsHold(blockIndex, position, word) {
    function found(normalized, from) { return normalized.indexOf(word, Math.max(0, from - word.length + 1)) >= 0; }
    return contentsUntil(blockIndex, position, function (text, normalized, from) { return found(normalized, from); })
      .then(function (read) { return read.normalized.indexOf(word) >= 0; });
  }

  /* The contents a result row's snippet is made from: read until the excerpt around the first match is the whole
   * text's (snippetSettled), or to the end. */
  function snippetContents(blockIndex, position, words) {
    var longest = 0;
    words.forEach(function (word) { longest = Math.max(longest, Array.from(word).length); });
    var seen = false;  // whether a word is in the normal form so far (looked for where it grew)
    return contentsUntil(blockIndex, position, function (text, normalized, from) {
      seen = seen || words.some(function (word) { return normalized.indexOf(word, Math.max(0, from - word.length + 1)) >= 0; });
      return seen && snippetSettled(text, words, longest);
    }).then(function (read) { return read.text; });
  }

  var normalizedTexts = Object.create(null);
  function normalizedField(field, blockIndex, position, viaHead) {
    var key = blockIndex + '/' + position + '/' + field;
    if (normalizedTexts[key] !== undefined) { return Promise.resolve(normalizedTexts[key]); }
    var source = meta(blockIndex, position, viaHead).then(function (record) {
      return record ? record[LAYOUT.meta[field === LAYOUT.postings.title ? 'title' : 'writer']] : '';
    });
    return source.then(function (value) { normalizedTexts[key] = normalize(value); return normalizedTexts[key]; });
  }

  function intersect(a, b) {
    var set = new Set(b);
    return a.filter(function (x) { return set.has(x); });
  }

  /* The candidates of one block: per word, per field, the positions; combined, newest first. */
  function matchBlock(blockIndex, plans, fields, board) {
    var tokenLists = plans.map(function (p) {
      return Promise.all(p.tokens.map(function (token) { return postingLists(blockIndex, token); }));
    });
    var boardList = board ? postingLists(blockIndex, FORMAT.boardToken + board) : Promise.resolve(null);
    return Promise.all([Promise.all(tokenLists), boardList]).then(function (results) {
      var perWord = results[0], combined = results[1] ? results[1][0] : null, counts = Object.create(null);
      perWord.forEach(function (lists, w) {
        lists.forEach(function (list, t) {
          counts[plans[w].tokens[t]] = fields.reduce(function (sum, field) { return sum + list[field].length; }, 0);
        });
      });
      var sets = perWord.map(function (lists) {
        var perField = [];
        for (var f = 0; f < postingCount(); f++) { perField.push(new Set()); }
        fields.forEach(function (field) {
          var positions = null;
          for (var i = 0; i < lists.length; i++) {
            positions = positions === null ? lists[i][field] : intersect(positions, lists[i][field]);
            if (!positions.length) { break; }
          }
          perField[field] = new Set(positions || []);
        });
        var union = new Set();
        fields.forEach(function (field) { perField[field].forEach(function (x) { union.add(x); }); });
        combined = combined === null ? Array.from(union) : combined.filter(function (x) { return union.has(x); });
        return perField;
      });
      return { sets: sets, candidates: (combined || []).sort(function (a, b) { return b - a; }), counts: counts };
    });
  }

  /* Resolves to null when the post does not match, else to whether its contents may hold a word. */
  function verify(blockIndex, position, plans, fields, sets) {
    var viaHead = inContents(fields, sets, position);
    function word(index) {
      if (index === plans.length) { return Promise.resolve(true); }
      var p = plans[index], order = fields.filter(function (f) { return sets[index][f].has(position); });
      function field(k) {
        if (k === order.length) { return Promise.resolve(false); }
        if (p.exact) { return Promise.resolve(true); }
        var holds = order[k] === LAYOUT.postings.contents ? contentsHold(blockIndex, position, p.word)
          : normalizedField(order[k], blockIndex, position, viaHead).then(function (value) { return value.indexOf(p.word) >= 0; });
        return holds.then(function (ok) { return ok ? true : field(k + 1); });
      }
      return field(0).then(function (ok) { return ok ? word(index + 1) : false; });
    }
    // A word found in the contents was a contents candidate there, so viaHead says whether the contents may hold one.
    return word(0).then(function (ok) { return ok ? viaHead : null; });
  }

  /* A running search: finds hits in listing order, as many as asked, resuming where it stopped. */
  function Search(query, target, board) {
    this.plans = queryWords(query).map(plan);
    this.seen = Object.create(null);  // token → [its positions in the blocks that read it, how many blocks] (wordTokens)
    this.fields = (TARGET_FIELDS[target] || TARGET_FIELDS.all).map(function (name) { return LAYOUT.postings[name]; });
    this.board = board;
    this.hits = [];
    this.blockIndex = 0;
    this.block = null;
    this.cursor = 0;
    this.aheadUntil = 0;  // candidates before this one have had their files fetched ahead
    this.count = 0;       // the hits the run under way looks for
    this.checked = -1;    // the candidate step() last let through the budget check
    this.allowed = null;  // the block numbers holding every token, once the directory is read
    this.hitsBeforeBlock = 0;  // hits found before the block under way (or the last one read)
    this.dryPosts = 0;  // the posts of the blocks read, since the last one that gave a hit (directory())
    this.done = this.plans.length === 0;
    this.paused = false;
    this.cancelled = false;
    this.running = null;
    this.runStart = 0;
    this.requestedStart = 0;
    this.budget = budgetBytes();
  }

  /* Stops a search the page no longer shows; idle() resolves once its step in flight has finished loading. */
  Search.prototype.cancel = function () { this.cancelled = true; };
  Search.prototype.idle = function () { return (this.running || Promise.resolve()).then(function () {}, function () {}); };

  /* Whether the next step, loading index files not loaded yet expected to weigh `bytes`, would take this run past its
   * budget; then the search pauses where it is (see fill). A run that has loaded nothing yet always goes on. */
  Search.prototype.overBudget = function (bytes) {
    var spent = loadedBytes - this.runStart;
    if (spent === 0 || spent + bytes <= this.budget) { return false; }
    this.paused = true;
    return true;
  };

  /* How many of these shard ids are neither read nor known to be missing. */
  function unloaded(ids) { return unreadIds(ids).length; }

  /* These shard ids, each once, but those read already or known to be missing. */
  function unreadIds(ids) {
    var seen = Object.create(null);
    return ids.filter(function (id) {
      if (seen[id] || Object.prototype.hasOwnProperty.call(shards, id)) { return false; }
      seen[id] = true;
      return true;
    });
  }

  /* The tokens a step reads for a word of many: all of them until a block has been read, then the
   * `layout.tokensPerWord` rarest in the blocks read so far (the fewest positions in the searched fields). Any of a word's bigrams is in
   * every post that holds the word, and a word of three or more code points is verified in the text, so a subset
   * finds the same matches; reading the rarest few costs a block a third of the posting shards of a long word. */
  Search.prototype.wordTokens = function (p) {
    var seen = this.seen, keep = LAYOUT.tokensPerWord;
    if (p.exact || p.tokens.length <= keep || !p.tokens.every(function (t) { return seen[t] !== undefined; })) { return p.tokens; }
    // Rarest by positions per block read (compared crosswise, in integers, as SearchIndexReader compares them), then
    // by the tokens' UTF-16 code units.
    return p.tokens.slice().sort(function (a, b) {
      return seen[a][0] * seen[b][1] - seen[b][0] * seen[a][1] || (a < b ? -1 : a > b ? 1 : 0);
    }).slice(0, keep);
  };
  /* The plans as a step reads them (wordTokens). */
  Search.prototype.readPlans = function () {
    var self = this;
    return this.plans.map(function (p) { return { word: p.word, tokens: self.wordTokens(p), exact: p.exact }; });
  };
  Search.prototype.tokens = function () {
    var tokens = [];
    this.readPlans().forEach(function (p) { tokens = tokens.concat(p.tokens); });
    return tokens;
  };

  /* The directory shards, and the posting shards of a block, that a step reads. */
  Search.prototype.directoryIds = function () { return this.tokens().map(directoryId); };
  Search.prototype.blockIds = function (blockIndex) {
    var tokens = this.tokens();
    if (this.board) { tokens.push(FORMAT.boardToken + this.board); }
    return tokens.map(function (token) { return postingId(blockIndex, token); });
  };

  /* How many posts the search has decided (found or ruled out), of manifest.total. In the block under way,
   * candidates go newest first (positions descending), so every position above the next candidate is decided. */
  Search.prototype.searched = function () {
    var count = 0;
    for (var i = 0; i < this.blockIndex && i < manifest.blocks.length; i++) { count += manifest.blocks[i][1]; }
    if (this.block && this.blockIndex < manifest.blocks.length) {
      var open = this.cursor < this.block.candidates.length ? this.block.candidates[this.cursor] + 1 : 0;
      count += manifest.blocks[this.blockIndex][1] - open;
    }
    return count;
  };

  /* What the index files not loaded yet that verifying and showing a candidate reads are expected to weigh: its
   * metadata shard, or when a word may be in its contents (inContents) its head and then the next contents piece it
   * reads (contents are read piece by piece until what is asked is settled). */
  Search.prototype.candidateBytes = function (blockIndex, position) {
    if (!inContents(this.fields, this.block.sets, position)) { return unloaded([metaId(blockIndex, position)]) * LAYOUT.estimates.meta; }
    var head = headId(blockIndex, position);
    if (!shards[head]) { return unloaded([head]) * LAYOUT.estimates.contents; }
    return Math.min(1, unloaded(contentsIds(blockIndex, position, shards[head][0]))) * LAYOUT.estimates.contents;
  };

  /* Fetches at once the index files of the next candidates, so the search waits for a round of loading instead of
   * one per file. Only files the run is bound to read: those of the candidates it verifies before it has `count` hits
   * (each yields at most one; the last hit's row is not read) while its budget allows, checked as step() will check
   * it (each file not read yet at its kind's estimate) with what is known of what comes before (the sizes of the files
   * fetched, likelySize() for the others): a candidate's head when a word may be in its contents (it holds the record
   * too), else its metadata shard; and its further contents pieces when every word may be in the contents (then
   * verifying or showing the post reads them), named once the head is in. Each file that
   * comes in tells more (a size, a post's pieces), so the plan is made again. verify() reads the files in order. */
  /* The bytes of every index file this run asked for, read or only fetched ahead (a file still coming in at
   * likelySize()): fetching ahead never takes them past the run's budget, so a first query loads what it reads and
   * at most one file more than its budget, whatever it fetched ahead and did not need. */
  Search.prototype.requestedBytes = function () {
    var total = 0;
    for (var i = this.requestedStart; i < requestedIds.length; i++) {
      var id = requestedIds[i];
      total += fetched[id] ? fetched[id][1] : likelySize();
    }
    return total;
  };
  Search.prototype.mayFetchAhead = function () { return this.requestedBytes() + likelySize() <= this.budget; };

  Search.prototype.fetchAhead = function () {
    var self = this, block = this.block, blockIndex = this.blockIndex, contentsList = LAYOUT.postings.contents;
    if (this.cancelled || block === null) { return; }
    // From the candidate step() let through last (its files may still be coming in), which needs no check.
    var from = this.checked >= 0 ? this.checked : this.cursor, i = from;
    var spent = loadedBytes - this.runStart, counted = Object.create(null);
    function unread(id) { return !counted[id] && !Object.prototype.hasOwnProperty.call(shards, id); }
    function replan() { if (self.block === block) { self.fetchAhead(); } }
    for (; i < block.candidates.length && i - from < this.count - this.hits.length - 1; i++) {
      var position = block.candidates[i], viaHead = inContents(this.fields, block.sets, position), files, contents = [];
      if (viaHead) {
        // The head serves as the record (read whatever verifying decides), so it is fetched; of the pieces after it, the
        // next unread one is counted as candidateBytes() counts it, and fetched only when every word may be in the
        // contents (then verifying or showing the post reads it).
        var head = headId(blockIndex, position), loaded = fetched[head];
        files = [head];
        if (loaded) { contents = contentsIds(blockIndex, position, loaded[0] ? loaded[0][0] : null).slice(1); }
      } else {
        files = [metaId(blockIndex, position)];
      }
      var sure = block.sets.every(function (s) { return s[contentsList].has(position); });
      files = files.filter(unread);
      contents = files.length ? [] : contents.filter(unread).slice(0, 1);
      // As candidateBytes(): an unread head or metadata shard, else the next unread piece.
      var asChecked = files.length * (viaHead ? LAYOUT.estimates.contents : LAYOUT.estimates.meta) + contents.length * LAYOUT.estimates.contents;
      if (i !== this.checked && spent > 0 && spent + asChecked > this.budget) { break; }
      files.concat(contents).forEach(function (id, k) {
        counted[id] = true;
        spent += fetched[id] ? fetched[id][1] : likelySize();
        if ((k < files.length || sure) && !fetched[id] && !waiting[id] && self.mayFetchAhead()) { fetchShard(id).then(replan); }
      });
    }
    this.aheadUntil = i;
  };

  /* After a block without candidates, the next blocks the directory allows are read one after another while they
   * have none either (a rare or absent word): fetches the posting shards of the next ones at once, at most
   * AHEAD_FILES files and while the budget, checked as step() checks a block, allows. A block with candidates may
   * stop the run before the ones after it: then what was fetched for them is loaded but not read. */
  var AHEAD_FILES = 8;
  Search.prototype.fetchBlocksAhead = function () {
    if (this.cancelled || !this.allowed) { return; }  // before the directory is read, the next step is the directory
    var self = this, spent = loadedBytes - this.runStart, files = 0;
    for (var b = this.blockIndex + 1; b < manifest.blocks.length && files < AHEAD_FILES; b++) {
      if (!this.allowed.has(blockNumber(manifest.blocks[b][0]))) { continue; }
      var ids = unreadIds(this.blockIds(b));
      if (spent > 0 && spent + ids.length * LAYOUT.estimates.postings > this.budget) { return; }
      ids.forEach(function (id) {
        spent += fetched[id] ? fetched[id][1] : likelySize();
        if (!fetched[id] && !waiting[id] && self.mayFetchAhead()) { files++; fetchShard(id); }
      });
    }
  };

  /* A full block's posts: the largest block's count. A block without a hit says a word is rare (the directory,
   * which names the blocks holding each token, then pays for itself) only once that many posts had none: the
   * notices and the newest, partial block are smaller. */
  function fullBlock() {
    var most = 1;
    manifest.blocks.forEach(function (block) { most = Math.max(most, block[1]); });
    return most;
  }

  Search.prototype.directory = function () {
    var self = this, tokens = this.tokens();
    return Promise.all(tokens.map(function (token) {
      var id = directoryId(token);
      return loadShard(id).then(function (payload) { return new Set(decode(lookup(id, payload, token) || '')); });
    })).then(function (sets) {
      var allowed = null;
      sets.forEach(function (set) { allowed = allowed === null ? set : new Set(Array.from(allowed).filter(function (x) { return set.has(x); })); });
      self.allowed = allowed;
    });
  };

  /* Finds hits until there are at least `count`, no more, or this run's byte budget is spent (then `paused`);
   * resolves to the hit list. Each call is a new run with a new budget, resuming where the last one stopped. */
  Search.prototype.fill = function (count, budget) {
    this.count = count;
    this.paused = false;
    this.runStart = loadedBytes;
    this.requestedStart = requestedIds.length;
    this.budget = budget || budgetBytes();
    this.running = this.step(count);
    return this.running;
  };

  Search.prototype.step = function (count) {
    var self = this;
    if (self.cancelled || self.done || self.hits.length >= count) { return Promise.resolve(self.hits); }
    if (self.block === null) {
      if (self.blockIndex >= manifest.blocks.length) { self.done = true; return Promise.resolve(self.hits); }
      if (self.allowed === null && self.dryPosts >= fullBlock()) {
        if (self.overBudget(unloaded(self.directoryIds()) * LAYOUT.estimates.directory)) { return Promise.resolve(self.hits); }
        return self.directory().then(function () { return self.step(count); });
      }
      if (self.allowed && !self.allowed.has(blockNumber(manifest.blocks[self.blockIndex][0]))) {
        self.blockIndex++;
        return self.step(count);
      }
      if (self.overBudget(unloaded(self.blockIds(self.blockIndex)) * LAYOUT.estimates.postings)) { return Promise.resolve(self.hits); }
      return matchBlock(self.blockIndex, self.readPlans(), self.fields, self.board).then(function (block) {
        Object.keys(block.counts).forEach(function (token) {
          var seen = self.seen[token] || [0, 0];
          self.seen[token] = [seen[0] + block.counts[token], seen[1] + 1];
        });
        self.block = block;
        self.hitsBeforeBlock = self.hits.length;
        self.cursor = 0;
        self.aheadUntil = 0;
        self.checked = -1;
        if (!block.candidates.length) { self.fetchBlocksAhead(); }
        return self.step(count);
      });
    }
    if (self.cursor >= self.block.candidates.length) {
      self.dryPosts = self.hits.length === self.hitsBeforeBlock ? self.dryPosts + manifest.blocks[self.blockIndex][1] : 0;
      self.block = null;
      self.blockIndex++;
      return self.step(count);
    }
    var position = self.block.candidates[self.cursor], blockIndex = self.blockIndex;
    if (self.overBudget(self.candidateBytes(blockIndex, position))) { return Promise.resolve(self.hits); }
    self.checked = self.cursor;
    if (self.cursor >= self.aheadUntil) { self.fetchAhead(); }
    self.cursor++;
    return verify(blockIndex, position, self.plans, self.fields, self.block.sets).then(function (contentsCandidate) {
      if (contentsCandidate === null) { return self.step(count); }
      self.hits.push({ block: blockIndex, position: position, contents: contentsCandidate });
      if (self.hits.length >= count) { return self.step(count); }
      // A hit the page will show: load its row and snippet now, inside this run's budget.
      var words = self.plans.map(function (p) { return p.word; });
      return Promise.all([meta(blockIndex, position, contentsCandidate), contentsCandidate ? snippetContents(blockIndex, position, words) : null]).then(function () {
        return self.step(count);
      });
    });
  };

  function ensureManifest() {
    if (manifest) { return Promise.resolve(manifest); }
    return loadShard('manifest').then(function (m) {
      if (!m) { throw new Error('the search index is missing'); }
      if (!m.layout || !m.format) { throw new Error('the search index has no layout or format: rebuild the site'); }
      LAYOUT = m.layout;
      FORMAT = m.format;
      manifest = m;
      return manifest;
    });
  }

  window.BoardArchiveSearch.normalize = normalize;
  window.BoardArchiveSearch.Search = Search;
  window.BoardArchiveSearch.ready = ensureManifest;
  window.BoardArchiveSearch.meta = meta;
  window.BoardArchiveSearch.field = field;  // a metadata record's field by name (after ready())

  /* ---- Highlighting -------------------------------------------------------------------------------- */
  var segmenter = null;
  try { if (typeof Intl !== 'undefined' && Intl.Segmenter) { segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' }); } } catch (e) { segmenter = null; }
  var JOINER = /^[\p{M}\u200d\u1160-\u11ff\ud7b0-\ud7ff\uff9e\uff9f\u{1f3fb}-\u{1f3ff}]/u;

  /* normalize() of one segment, remembered: a text has few distinct segments, and normalising each anew was most
   * of the time of showing a page of results with their snippets. */
  var normalizedSegments = new Map();
  function normalizedSegment(segment) {
    var piece = normalizedSegments.get(segment);
    if (piece === undefined) {
      if (normalizedSegments.size >= 65536) { normalizedSegments.clear(); }
      piece = normalize(segment);
      normalizedSegments.set(segment, piece);
    }
    return piece;
  }

  /* Characters no rule of UAX #29 joins to one another: printable ASCII, tab, line feed and precomposed Hangul
   * syllables. Between two of them a grapheme cluster always ends (none is Extend, ZWJ, SpacingMark, Prepend, CR,
   * a regional indicator or a conjoining jamo). */
  var LONE = /[\t\n\x20-\x7e\uac00-\ud7a3]/, ALL_LONE = new RegExp('^' + LONE.source + '*$');
  function lone(value, at) { return LONE.test(value.charAt(at)); }

  /* Appends the grapheme clusters of `value` to `segments` ({start, text}), as Intl.Segmenter finds them: the
   * segmenter reads only the stretches of other characters, each with one character either side (the only ones a
   * cluster there can take in), and every other character is a cluster of its own. Iterating the segmenter over a
   * whole post was most of the time of showing a page of results with their snippets. */
  function graphemes(value, segments) {
    var at = 0, length = value.length;
    while (at < length) {
      if (lone(value, at)) { segments.push({ start: at, text: value.charAt(at) }); at++; continue; }
      var start = Math.max(0, at - 1), end = at;
      // A stretch ends after a lone character followed by another (no cluster crosses between them) or at the end.
      while (end < length && !(lone(value, end) && (end + 1 === length || lone(value, end + 1)))) { end++; }
      end = Math.min(length, end + 1);
      if (start < at) { segments.pop(); }
      var it = segmenter.segment(value.slice(start, end))[Symbol.iterator](), step;
      while (!(step = it.next()).done) { segments.push({ start: start + step.value.index, text: step.value.segment }); }
      at = end;
    }
  }

  /* Splits text into grapheme-like segments and maps the normalised text back to them. Text of characters that stand
   * alone (most posts) maps one to one: every character is a segment, and normalising lowers A-Z, nothing else; its
   * map has no segment list (`segments` null). With `reference` (the tests' yardstick for those shortcuts) it takes
   * none: the segmenter over the whole text and normalize() of every segment. */
  function segmentMap(value, reference) {
    if (!reference && ALL_LONE.test(value)) { return { segments: null, normalized: value.toLowerCase(), owner: null, length: value.length }; }
    var segments = [];
    if (segmenter && reference) {
      Array.from(segmenter.segment(value), function (s) { segments.push({ start: s.index, text: s.segment }); });
    } else if (segmenter) {
      graphemes(value, segments);
    } else {
      var offset = 0;
      Array.from(value).forEach(function (point) {
        if (segments.length && JOINER.test(point)) { segments[segments.length - 1].text += point; } else { segments.push({ start: offset, text: point }); }
        offset += point.length;
      });
    }
    var pieces = [], owner = [];
    for (var index = 0; index < segments.length; index++) {
      var text = segments[index].text, piece = text;
      if (reference) {
        piece = normalize(text);
      } else if (text.length !== 1 || !lone(text, 0)) {
        piece = normalizedSegment(text);
      } else if (text >= 'A' && text <= 'Z') {
        piece = text.toLowerCase();  // the rest of them normalise to themselves
      }
      pieces.push(piece);
      for (var i = 0; i < piece.length; i++) { owner.push(index); }
    }
    return { segments: segments, normalized: pieces.join(''), owner: owner, length: value.length };
  }

  /* The original [start, end) ranges of every occurrence of the words; overlapping ones merge, adjacent ones stay apart. */
  function matchRanges(map, words) {
    var ranges = [];
    words.forEach(function (word) {
      if (!word) { return; }
      var from = 0, at;
      while ((at = map.normalized.indexOf(word, from)) >= 0) {
        if (map.segments === null) {
          ranges.push([at, at + word.length]);
        } else {
          var first = map.segments[map.owner[at]], last = map.segments[map.owner[at + word.length - 1]];
          ranges.push([first.start, last.start + last.text.length]);
        }
        from = at + word.length;
      }
    });
    ranges.sort(function (a, b) { return a[0] - b[0]; });
    var merged = [];
    ranges.forEach(function (r) {
      var top = merged[merged.length - 1];
      if (top && r[0] < top[1]) { top[1] = Math.max(top[1], r[1]); } else { merged.push([r[0], r[1]]); }
    });
    return merged;
  }

  /* Appends `value` to `parent` as text nodes, with every occurrence of the words in <mark>. */
  function appendMarked(parent, value, words) {
    var ranges = matchRanges(segmentMap(value), words), at = 0;
    ranges.forEach(function (r) {
      if (r[0] > at) { parent.appendChild(document.createTextNode(value.slice(at, r[0]))); }
      var mark = document.createElement('mark');
      mark.textContent = value.slice(r[0], r[1]);
      parent.appendChild(mark);
      at = r[1];
    });
    if (at < value.length) { parent.appendChild(document.createTextNode(value.slice(at))); }
  }

  /* A short excerpt of `value` around the first occurrence of any word, or null. */
  var SNIPPET_AFTER = 80;  // code units after the first match (TextHighlighter.snippetAfterUnits)
  function snippet(value, words, reference) {
    var map = segmentMap(value, reference), ranges = matchRanges(map, words);
    if (!ranges.length) { return null; }
    var start = Math.max(0, ranges[0][0] - 40), end = Math.min(value.length, ranges[0][1] + SNIPPET_AFTER), want = start;
    var segs = map.segments || [];  // without a list every character is a segment: start and end are boundaries
    // Back to the start of the segment holding `want` (compared with `want`: comparing with `start` as it moved
    // stopped at the first segment, so excerpts began at the start of the post).
    for (var i = 0; i < segs.length; i++) { if (segs[i].start <= want) { start = segs[i].start; } else { break; } }
    for (var j = 0; j < segs.length; j++) { if (segs[j].start >= end) { end = segs[j].start; break; } if (j === segs.length - 1) { end = value.length; } }
    return (start > 0 ? '\u2026' : '') + value.slice(start, end).replace(/\s+/g, ' ') + (end < value.length ? '\u2026' : '');
  }

  /* Whether snippet(value, words) is the snippet of every longer text that starts with `value` at a place the
   * builder may cut (see contentsUntil): the excerpt after the first match ends before the last segment of `value`
   * starts, and the normal form goes on at least `longest` code points past that match's last segment, so no match
   * that crosses the end of `value` could start before the first one ends (TextHighlighter.snippetSettled, which the
   * Swift reader asks, says the same). */
  function snippetSettled(value, words, longest) {
    var map = segmentMap(value), ranges = matchRanges(map, words);
    if (!ranges.length || !value.length) { return false; }
    var end = ranges[0][1], lastStart = value.length - 1, normalEnd = end;
    if (map.segments !== null) {
      lastStart = map.segments[map.segments.length - 1].start;
      var next = 0;  // the first segment after the match
      while (next < map.segments.length && map.segments[next].start < end) { next++; }
      normalEnd = 0;
      while (normalEnd < map.owner.length && map.owner[normalEnd] < next) { normalEnd++; }
    }
    if (end + SNIPPET_AFTER > lastStart) { return false; }
    return Array.from(map.normalized.slice(normalEnd)).length >= longest;
  }

  window.BoardArchiveSearch.appendMarked = appendMarked;
  window.BoardArchiveSearch.graphemes = function (value) { var list = []; if (segmenter) { graphemes(value, list); } return list; };
  window.BoardArchiveSearch.matchRanges = function (value, words, reference) { return matchRanges(segmentMap(value, reference), words); };
  window.BoardArchiveSearch.snippet = snippet;

  /* ---- The page ------------------------------------------------------------------------------------ */
  function byId(id) { return document.getElementById(id); }
  var form = byId('search-form'), input = byId('search-query'), targetSelect = byId('search-target'), boardSelect = byId('search-board');
  var statusLine = byId('search-status'), table = byId('search-table'), rows = byId('search-results'), more = byId('search-more');
  var recentBox = byId('search-recent'), recentList = byId('search-recent-list'), recentClear = byId('search-recent-clear');
  var recentEmpty = byId('search-recent-empty'), keywordBox = byId('search-keyword');
  var current = null, generation = 0, clicks = 0;
  if (!statusLine || !rows || !table || !more) { return; }  // the engine alone (tests, benchmarks)

  function now() { return window.performance && performance.now ? performance.now() : Date.now(); }
  function clear(element) { while (element && element.firstChild) { element.removeChild(element.firstChild); } }
  function format(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) { return Object.prototype.hasOwnProperty.call(values, key) ? values[key] : all; });
  }
  function targetLabel(target) {
    for (var i = 0; targetSelect && i < targetSelect.options.length; i++) {
      if (targetSelect.options[i].value === target) { return targetSelect.options[i].textContent; }
    }
    return target;
  }
  function setStatus(message) { statusLine.textContent = message; }

  /* Recent searches: localStorage, most recent first, de-duplicated, at most 10; silent when unavailable. */
  function readRecent() {
    try {
      var list = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || '[]');
      if (!Array.isArray(list)) { return []; }
      return list.filter(function (e) { return e && typeof e.q === 'string' && TARGETS.indexOf(e.target) >= 0; }).slice(0, 10);
    } catch (e) { return []; }
  }
  function writeRecent(list) { try { window.localStorage.setItem(STORAGE_KEY, JSON.stringify(list.slice(0, 10))); } catch (e) { /* storage unavailable */ } }
  function remember(query, target) {
    var list = readRecent().filter(function (e) { return !(e.q === query && e.target === target); });
    list.unshift({ q: query, target: target });
    writeRecent(list);
  }
  function forget(query, target) {
    writeRecent(readRecent().filter(function (e) { return !(e.q === query && e.target === target); }));
    renderRecent();
    if (input) { input.focus(); }
  }

  function renderRecent() {
    if (!recentBox) { return; }
    var list = readRecent();
    clear(recentList);
    list.forEach(function (entry) {
      var item = document.createElement('li');
      item.className = 'recent-item';
      var run = document.createElement('button');
      run.type = 'button';
      run.className = 'recent-run';
      run.textContent = entry.q;
      var label = document.createElement('span');
      label.className = 'recent-target';
      label.textContent = targetLabel(entry.target);
      run.appendChild(document.createTextNode(' '));
      run.appendChild(label);
      run.addEventListener('click', function () { go(entry.q, entry.target, boardSelect ? boardSelect.value : ''); });
      var remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'recent-remove';
      remove.setAttribute('aria-label', format(text('remove'), { query: entry.q }));
      remove.textContent = '\u00d7';
      remove.addEventListener('click', function () { forget(entry.q, entry.target); });
      item.appendChild(run);
      item.appendChild(remove);
      recentList.appendChild(item);
    });
    if (recentClear) { recentClear.hidden = list.length === 0; }
    if (recentEmpty) { recentEmpty.hidden = list.length > 0; }
    // With no search on screen, the last removed entry brings back the prompt of the empty state.
    if (!list.length && (!current || !current.search)) { setStatus(text('prompt')); }
    updateRecentVisibility();
  }

  function updateRecentVisibility() {
    if (!recentBox) { return; }
    var active = document.activeElement;
    // An open list stays open while focus moves on through the form (Tab from the box reaches the list).
    var focused = active === input || (active && recentBox.contains(active)) || (!recentBox.hidden && form && active && form.contains(active));
    recentBox.hidden = !(focused || !input || input.value.trim() === '');
  }

  /* ---- Rows: partials/post-row, which the build renders into the page as <template id="search-row"> ------------ */
  // SearchRowTemplate in the builder: each value is U+E000 key U+E001; each section on a row key is
  // <!--ba:s:key-->…<!--ba:e:key--> (ba:i: when inverted), in element content and inside attribute values alike.
  var rowTemplate = document.getElementById('search-row');
  var PLACEHOLDER = /\uE000([^\uE001]*)\uE001/g;
  var SECTION = /<!--ba:([sie]):([^-]*)-->/g;

  /* Whether a section on `key` ('s') or an inverted one ('i') shows its content for these values: as in swift-mustache,
   * only false and a missing value are falsy (0 and '' are values). */
  function shows(kind, key, values) {
    var value = values[key], truthy = value !== false && value !== undefined && value !== null;
    return kind === 'i' ? !truthy : truthy;
  }

  /* An attribute value with its sections kept or dropped and its values put in (text: attributes are never markup). */
  function fillText(value, values) {
    var out = '', at = 0, stack = [], hiding = 0, match;
    SECTION.lastIndex = 0;
    while ((match = SECTION.exec(value))) {
      if (!hiding) { out += value.slice(at, match.index); }
      at = SECTION.lastIndex;
      if (match[1] === 'e') { if (stack.pop()) { hiding--; } continue; }
      var hides = !shows(match[1], match[2], values);
      stack.push(hides);
      if (hides) { hiding++; }
    }
    if (!hiding) { out += value.slice(at); }
    return out.replace(PLACEHOLDER, function (whole, key) { return values[key] === undefined ? '' : String(values[key]); });
  }

  /* One result row: the template's copy with the row's sections and values; a key ending in HTML is a value's text
   * with the searched words in <mark>. */
  function fillRow(values, words) {
    var fragment = rowTemplate.content.cloneNode(true);
    // Sections in element content, innermost first (their end comes first in document order).
    var walker = document.createTreeWalker(fragment, NodeFilter.SHOW_COMMENT), comments = [], node, open = [];
    while ((node = walker.nextNode())) { comments.push(node); }
    comments.forEach(function (comment) {
      var match = /^ba:([sie]):(.*)$/.exec(comment.data);
      if (!match) { return; }
      if (match[1] !== 'e') { open.push([comment, shows(match[1], match[2], values)]); return; }
      var start = open.pop();
      if (!start) { return; }
      if (start[1]) { start[0].parentNode.removeChild(start[0]); comment.parentNode.removeChild(comment); return; }
      var range = document.createRange();
      range.setStartBefore(start[0]);
      range.setEndAfter(comment);
      range.deleteContents();
    });
    var elements = fragment.querySelectorAll('*');
    for (var e = 0; e < elements.length; e++) {
      for (var a = 0; a < elements[e].attributes.length; a++) {
        var attribute = elements[e].attributes[a];
        if (/[\uE000<]/.test(attribute.value)) { attribute.value = fillText(attribute.value, values); }
      }
    }
    var texts = [], textWalker = document.createTreeWalker(fragment, NodeFilter.SHOW_TEXT);
    while ((node = textWalker.nextNode())) { if (node.data.indexOf('\uE000') >= 0) { texts.push(node); } }
    texts.forEach(function (textNode) {
      var parts = document.createDocumentFragment(), data = textNode.data, at = 0, match;
      PLACEHOLDER.lastIndex = 0;
      while ((match = PLACEHOLDER.exec(data))) {
        if (match.index > at) { parts.appendChild(document.createTextNode(data.slice(at, match.index))); }
        var key = match[1], value = values[key] === undefined ? '' : String(values[key]);
        if (/HTML$/.test(key)) { appendMarked(parts, value, words); } else { parts.appendChild(document.createTextNode(value)); }
        at = PLACEHOLDER.lastIndex;
      }
      if (at < data.length) { parts.appendChild(document.createTextNode(data.slice(at))); }
      textNode.parentNode.replaceChild(parts, textNode);
    });
    return fragment;
  }

  function element(tag, className, content) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (content !== undefined) { node.textContent = content; }
    return node;
  }

  /* The row's values, by the keys of a keyword row (KeywordPageWriter.rowKeys); `…HTML` values are plain text here. */
  function rowValues(record, contentsText, words, boardNames) {
    var postId = field(record, 'postId'), type = field(record, 'postType'), created = new Date(field(record, 'created') * 1000);
    // Dates in the archive's time zone against the reader's clock, by site.js's date module (loaded first by the layout).
    var dates = window.BoardArchiveDates, local = dates.localParts(created), today = dates.localParts(new Date());
    var title = String(field(record, 'title')), writer = String(field(record, 'writer'));
    if (title.trim() === '') { title = text('untitled'); }
    var comments = field(record, 'comments'), attachments = field(record, 'attachments'), boardName = boardNames[field(record, 'boardId')];
    var excerpt = contentsText === null ? null : snippet(contentsText, words);
    return {
      postId: postId, postType: type, href: 'posts/' + postId + '.html', title: title, titleHTML: title, writer: writer,
      writerHTML: writer, isAnonymous: false, iso: dates.iso(field(record, 'created')), dateLabel: dates.shortLabel(local, today),
      fullDate: dates.fullLabel(local), viewCount: field(record, 'views'), commentsCount: comments, hasComments: comments > 0,
      attachmentsCount: attachments, hasAttachment: attachments > 0, isNotice: type === 'notice', isReply: type === 'reply',
      isNew: dates.sameDay(local, today), boardName: boardName === undefined ? '' : boardName, hasBoardName: boardName !== undefined,
      snippetHTML: excerpt === null ? '' : excerpt, hasSnippet: excerpt !== null
    };
  }

  function buildRow(record, contentsText, words, boardNames) {
    return fillRow(rowValues(record, contentsText, words, boardNames), words);
  }

  /* Renders hits [from, to) of the current search, in order. */
  function renderHits(state, from, to) {
    var words = state.search.plans.map(function (p) { return p.word; });
    var names = Object.create(null);
    manifest.boards.forEach(function (b) { names[b[0]] = b[1]; });
    var slice = state.search.hits.slice(from, to);
    return Promise.all(slice.map(function (hit) {
      return Promise.all([meta(hit.block, hit.position, hit.contents), hit.contents ? snippetContents(hit.block, hit.position, words) : Promise.resolve(null)]);
    })).then(function (loaded) {
      if (state.generation !== generation) { return; }
      loaded.forEach(function (pair) { if (pair[0]) { rows.appendChild(buildRow(pair[0], pair[1], words, names)); } });
      state.shown = from + slice.length;
    });
  }

  /* The status line and the button under the results: "more" while found hits wait to be shown, "search older
   * posts" when the run paused on its byte budget with nothing more to show. */
  function showCount(state) {
    var search = state.search, count = search.hits.length;
    var waiting = count > state.shown, paused = search.paused && !waiting;
    var values = { count: state.shown, query: state.query, target: targetLabel(state.target), searched: search.searched(), total: manifest.total };
    if (paused) {
      setStatus(format(text(count === 0 ? 'paused-none' : 'paused'), values));
    } else if (count === 0) {
      setStatus(format(text('no-results'), values));
    } else {
      setStatus(format(text(search.done && !waiting ? 'count' : 'count-more'), values));
    }
    more.textContent = text(paused ? 'continue' : 'more');
    more.hidden = !(waiting || paused);
    more.setAttribute('data-action', paused ? 'continue' : 'more');
    table.hidden = count === 0;
  }

  function showKeyword(words) {
    if (!keywordBox) { return; }
    clear(keywordBox);
    keywordBox.hidden = true;
    var joined = words.join(' ');
    (manifest.keywords || []).forEach(function (k) {
      if (k[0] !== joined) { return; }
      var link = element('a', 'keyword-link', format(text('keyword-page'), { keyword: joined, count: k[2] }));
      link.href = k[1];
      keywordBox.appendChild(link);
      keywordBox.hidden = false;
    });
  }

  function fillBoards() {
    if (boardSelect && boardSelect.options.length <= 1) {
      manifest.boards.forEach(function (b) { var o = element('option', '', b[1]); o.value = String(b[0]); boardSelect.appendChild(o); });
    }
  }

  /* Runs the search the URL describes. */
  function run(params) {
    var query = params.q, target = TARGETS.indexOf(params.target) >= 0 ? params.target : 'all', board = params.board;
    if (input) { input.value = query; }
    if (targetSelect) { targetSelect.value = target; }
    var header = byId('site-search');
    if (header) { header.value = query; }
    var state = { generation: ++generation, query: query, target: target, board: board, shown: 0, search: null, started: now() };
    var previous = current && current.search;
    if (previous) { previous.cancel(); }
    current = state;
    clear(rows);
    table.hidden = true;
    more.hidden = true;
    if (keywordBox) { keywordBox.hidden = true; }
    if (queryWords(query).length === 0) {
      setStatus(readRecent().length ? '' : text('prompt'));
      renderRecent();
      return Promise.resolve();
    }
    var ready = ensureManifest();  // loading while the recent searches are stored and shown
    remember(query.trim(), target);
    renderRecent();
    setStatus(text('searching'));
    return ready.then(function () {
      // What the abandoned search still loads must not count against this one's budget.
      return previous ? previous.idle() : null;
    }).then(function () {
      if (state.generation !== generation) { return; }
      fillBoards();
      if (boardSelect) { boardSelect.value = board || ''; }
      showKeyword(queryWords(query));
      state.search = new Search(query, target, boardToken(board));
      return state.search.fill(PAGE + 1);
    }).then(function () {
      if (state.generation !== generation) { return; }
      return renderHits(state, 0, PAGE).then(function () { showCount(state); });
    }).catch(function () {
      if (state.generation === generation) { setStatus(text('index-error')); }
    }).then(function () {
      // For the benchmark: how long the query took, and how long since the page started loading.
      window.BoardArchiveSearch.lastRun = {
        query: query, target: target, ms: now() - state.started, sinceNavigation: now(), shards: requestedIds.slice(),
        hits: state.search ? state.search.hits.length : 0, paused: state.search ? state.search.paused : false
      };
      app.setAttribute('data-ready', String(state.generation));
    });
  }

  function showMore() {
    var state = current;
    if (!state || !state.search) { return; }
    more.disabled = true;
    // "Search older posts" doubles the budget of each further run, so a long search needs few clicks.
    var budget = state.search.paused && state.search.hits.length <= state.shown ? Math.min(state.search.budget * 2, 16 * budgetBytes()) : budgetBytes();
    state.search.fill(state.shown + PAGE + 1, budget).then(function () {
      return renderHits(state, state.shown, state.shown + PAGE);
    }).then(function () {
      more.disabled = false;
      // A new value after every click, even one that found nothing new (a paused search going on).
      if (state.generation === generation) { showCount(state); app.setAttribute('data-ready', String(state.generation) + '+' + state.shown + ':' + (++clicks)); }
    }).catch(function () {
      more.disabled = false;
      if (state.generation === generation) { setStatus(text('index-error')); }
    });
  }

  /* The board filter's id as the index spells it after the format's `boardToken`: decimal text, never a JS number. */
  function boardToken(board) {
    var match = /^\s*(-?)0*(\d+)\s*$/.exec(String(board || ''));
    return match ? match[1] + match[2] : null;
  }

  function paramsFromLocation() {
    var params = new URLSearchParams(window.location.search);
    return { q: params.get('q') || '', target: params.get('target') || 'all', board: params.get('board') || '' };
  }

  /* Puts the search in the URL (so it can be linked and the back button works), then runs it. */
  function go(query, target, board) {
    var params = new URLSearchParams();
    params.set('q', query);
    params.set('target', target);
    if (board) { params.set('board', board); }
    try {
      window.history.pushState(null, '', '?' + params.toString());
    } catch (e) {
      window.location.search = '?' + params.toString();
      return;
    }
    if (input) { input.blur(); }
    run({ q: query, target: target, board: board });
  }

  if (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      go(input.value, targetSelect ? targetSelect.value : 'all', boardSelect ? boardSelect.value : '');
    });
  }
  if (more) { more.addEventListener('click', showMore); }
  if (recentClear) { recentClear.addEventListener('click', function () { writeRecent([]); renderRecent(); if (input) { input.focus(); } }); }
  if (input) {
    input.addEventListener('focus', updateRecentVisibility);
    input.addEventListener('input', updateRecentVisibility);
  }
  if (recentBox) { recentBox.addEventListener('focusout', function () { setTimeout(updateRecentVisibility, 0); }); }
  if (form) { form.addEventListener('focusout', function () { setTimeout(updateRecentVisibility, 0); }); }
  if (input) { input.addEventListener('blur', function () { setTimeout(updateRecentVisibility, 150); }); }
  window.addEventListener('popstate', function () { run(paramsFromLocation()); });
  run(paramsFromLocation());
}());
