import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveSearch
import BoardArchiveStore
import Foundation

/// Renders the pages of keywords: `keywords/<slug>.html`, `keywords/<slug>-page-<n>.html` and the index.
///
/// Pages need no JavaScript: every row is rendered by Mustache with `<mark>` around each occurrence of the
/// keyword's words in the title and the writer, and a contents snippet around the first occurrence.
struct KeywordPageWriter: Sendable {
    let pages: PageContext
    let strings: SiteStrings
    let boardNames: [Int: String]

    /// The file name of a keyword's front page (`archivePage` nil) or archive page `archivePage`, inside `keywords/`.
    static func fileName(slug: String, archivePage: Int?) -> String {
        archivePage.map { "\(slug)-page-\($0 + 2).html" } ?? "\(slug).html"
    }

    /// The pages of a keyword whose `count` matches list `pinned` notices first: the front page and the archive
    /// pages, each with the range of match indices it lists (see ``ListingPages``).
    static func pages(count: Int, pinned: Int) -> (listing: ListingPages, pages: [(archivePage: Int?, range: Range<Int>)]) {
        let listing = ListingPages(pinnedCount: pinned, itemCount: count - pinned)
        var result: [(archivePage: Int?, range: Range<Int>)] = [(nil, 0..<(pinned + listing.frontCount))]
        for page in stride(from: listing.archivePageCount - 1, through: 0, by: -1) {
            let range = listing.range(ofArchivePage: page)
            let newest = pinned + listing.itemCount - range.upperBound
            result.append((page, newest..<(newest + range.count)))
        }
        return (listing, result)
    }

    /// One page to render: its keyword (an index into the keywords), which page, where the ids of the posts it lists
    /// are in the ids of all pages (one flat array: at 1M posts there are hundreds of thousands of pages to render, and
    /// an array each cost more than the ids), and the creation time and id of the oldest of them (the order pages are
    /// rendered in).
    private struct PageJob {
        var keyword: Int
        var archivePage: Int?
        var ids: Range<Int>
        var oldest: (created: Int, postId: Int)
    }

    /// What a keyword's pages show besides their rows.
    private struct KeywordListing {
        var keyword: SearchKeyword
        var count: Int
        var listing: ListingPages
        /// The texts every page of the keyword shares, made once (Foundation's string replacing and percent-encoding
        /// showed in the profile when made per page).
        var title: String
        var countLabel: String
        var searchHref: String
    }

    /// What every row of one post shares, whatever the keyword: the row's keys and the post's text cut into clusters.
    /// Unchecked: made once per batch, then only read (the row's values are strings, numbers and booleans).
    private struct PreparedPost: @unchecked Sendable {
        var row: [String: Any]
        var title: ClusteredText
        var writer: ClusteredText
        /// The first ``snippetPrefix`` bytes of the body, cut; the whole body only when a snippet needs more.
        var contents: ClusteredText
        var body: String
        /// Whether no text of the row holds a `U+0000`, so its row can be rendered as a ``RowStencil``.
        var stencilSafe: Bool
    }

    /// The highlights of one row: the values of ``RowStencil/slots`` in order, and whether there is a snippet.
    private struct Highlight {
        var values: [String]
        var hasSnippet: Bool

        init(of post: PreparedPost, by highlighter: TextHighlighter) {
            let snippet = highlighter.snippet(in: post.contents, of: post.body)
            values = [
                TextHighlighter.html(of: highlighter.parts(in: post.title)), TextHighlighter.html(of: highlighter.parts(in: post.writer)),
                TextHighlighter.html(of: snippet ?? []),
            ]
            hasSnippet = snippet != nil
        }
    }

    /// Keys every stencil's context starts from. Unchecked: made once, then only read (strings, numbers, arrays of them).
    private struct SharedContext: @unchecked Sendable {
        var keys: [String: Any]
    }

    /// A post of a batch (its index) and its row's `hasSnippet`: what a stencil is made for.
    private struct StencilKey: Hashable {
        var post: Int
        var hasSnippet: Bool
    }

    /// How many bytes of a body are cut into clusters up front: most first matches are early (see
    /// ``TextHighlighter/snippet(in:of:before:after:)``).
    static let snippetPrefix = 4096

    /// Pages rendered together: their posts are read and prepared once, and a post's stencils made once.
    static let batchSize = 256

    /// Writes the pages of every keyword whose digests changed; returns how many pages the keywords have in all.
    ///
    /// Pages of all keywords are rendered together, oldest first, in batches: a post listed under many keywords is
    /// read from the store, and cut into clusters and normalised, once per batch instead of once per keyword.
    /// The matches of one keyword at a time are collected from `blocks` (in search order) and let go once its
    /// pages' digests are known; only the pages to render are kept, with their post ids.
    func writePages(
        of keywords: [SearchKeyword], blocks: [SearchPhase.Block], removedPlaces: RemovedPlaces, store: any ArchiveSnapshot,
        renderer: TemplateRenderer,
        output: SiteOutput, base: BuildDigest
    ) throws -> Int {
        var jobs: [PageJob] = []
        var jobIds: [Int] = []
        var listings: [KeywordListing] = []
        var pageCount = 0
        for (index, keyword) in keywords.enumerated() {
            let results = KeywordResults(keyword: keyword, blocks: blocks, removedPlaces: removedPlaces.bySlug[keyword.slug] ?? [])
            var (listing, keywordPages) = Self.pages(count: results.postIds.count, pinned: results.pinned)
            listing.removedCount = results.removedCount
            listings.append(
                KeywordListing(
                    keyword: keyword, count: results.shownCount, listing: listing,
                    title: strings["keywordTitle"].replacingOccurrences(of: "{keyword}", with: keyword.text),
                    countLabel: strings["keywordCount"].replacingOccurrences(of: "{count}", with: String(results.shownCount)),
                    searchHref: Self.searchHref(keyword.text)))
            pageCount += keywordPages.count
            for page in keywordPages {
                let input = KeywordPageInput(
                    keyword: results.keyword.text, pager: listing.pager(of: page.archivePage),
                    rows: page.range.map { row in
                        results.removed[row]
                            ? KeywordRowInput.removed(postId: results.postIds[row])
                            : KeywordRowInput(
                                postId: results.postIds[row], contentHash: results.hashes[row],
                                boardName: boardNames[results.boards[row]] ?? "",
                                isToday: pages.clock.isToday(Date(timeIntervalSince1970: TimeInterval(results.created[row]))))
                    })
                let digest = input.digest(base: base)
                let path = "keywords/" + Self.fileName(slug: results.keyword.slug, archivePage: page.archivePage)
                if try output.needsRendering(path, digest: digest) {
                    let oldest =
                        page.range.isEmpty ? (Int.max, 0) : (results.created[page.range.upperBound - 1], results.postIds[page.range.upperBound - 1])
                    let first = jobIds.count
                    jobIds.append(contentsOf: page.range.filter { !results.removed[$0] }.map { results.postIds[$0] })
                    jobs.append(PageJob(keyword: index, archivePage: page.archivePage, ids: first..<jobIds.count, oldest: oldest))
                }
            }
        }
        // Oldest first by each page's oldest row: pages of different keywords listing the same posts fall in one batch.
        jobs.sort { lhs, rhs in
            lhs.oldest != rhs.oldest ? lhs.oldest < rhs.oldest : (lhs.keyword, lhs.archivePage ?? -1) < (rhs.keyword, rhs.archivePage ?? -1)
        }
        let highlighters = keywords.map { TextHighlighter(query: $0.text) }
        let keywordListings = listings
        let plan = renderer.stencilPlan(rowKeys: TemplateKeys.keywordRow, pageKeys: TemplateKeys.keywordPage)
        let pageRenderer = plan.map { renderer.with($0.library) } ?? renderer
        let allIds = jobIds
        for start in stride(from: 0, to: jobs.count, by: Self.batchSize) {
            let batch = Array(jobs[start..<min(jobs.count, start + Self.batchSize)])
            let batchIds = batch.map { Array(allIds[$0.ids]) }
            let (ids, prepared) = try prepare(batchIds, store: store)
            let lookup = Dictionary(uniqueKeysWithValues: zip(ids, prepared.indices))
            let highlights = try concurrentMap(batch.count) { item in
                batchIds[item].compactMap { lookup[$0] }.map { post in
                    (post: post, highlight: Highlight(of: prepared[post], by: highlighters[batch[item].keyword]))
                }
            }
            let stencils = plan == nil ? [:] : try self.stencils(for: highlights, of: prepared, renderer: renderer)
            _ = try concurrentMap(batch.count) { item in
                let rows = highlights[item].map { row in
                    context(
                        of: prepared[row.post], row.highlight, stencil: stencils[StencilKey(post: row.post, hasSnippet: row.highlight.hasSnippet)])
                }
                try write(batch[item], of: keywordListings[batch[item].keyword], rows: rows, renderer: pageRenderer, output: output)
            }
        }
        return pageCount
    }

    /// The posts of a batch of pages, each read once, in order of first appearance, with their rows prepared.
    private func prepare(_ batch: [[Int]], store: any ArchiveSnapshot) throws -> (ids: [Int], posts: [PreparedPost]) {
        var unique: [Int] = []
        var seen = Set<Int>()
        for pageIds in batch {
            for id in pageIds where seen.insert(id).inserted { unique.append(id) }
        }
        let ids = unique
        let posts: [Int: Post]
        do { posts = try store.posts(ids: ids) } catch {
            throw BuildError(phase: .store, underlying: error, location: "keyword pages")
        }
        if let missing = ids.first(where: { posts[$0] == nil }) {
            throw BuildError(
                phase: .store, reason: .underlying("post \(missing) left the store while its keyword pages were built; run the build again"),
                location: "keyword pages")
        }
        let prepared = try concurrentMap(ids.count) { item -> PreparedPost in
            guard let post = posts[ids[item]] else { throw CancellationError() }
            // The highlights are each keyword's own (``context(of:_:stencil:)``).
            let (row, title, writer) = pages.keywordRow(for: post, boardName: boardNames[post.boardId] ?? "")
            // A row holding U+0000 could hold something that reads as a stencil's placeholder: rendered whole.
            let plain = row.values.allSatisfy { ($0 as? String)?.utf8.contains(0) != true }
            return PreparedPost(
                row: row, title: ClusteredText(title), writer: ClusteredText(writer),
                contents: ClusteredText(post.contents, prefix: Self.snippetPrefix), body: post.contents, stencilSafe: plain)
        }
        return (ids, prepared)
    }

    /// The stencils of the rows in `highlights` whose posts allow one: one per post and `hasSnippet` value.
    private func stencils(
        for highlights: [[(post: Int, highlight: Highlight)]], of prepared: [PreparedPost], renderer: TemplateRenderer
    ) throws -> [StencilKey: RowStencil] {
        var keys: [StencilKey] = []
        var seen = Set<StencilKey>()
        for page in highlights {
            for row in page where prepared[row.post].stencilSafe {
                let key = StencilKey(post: row.post, hasSnippet: row.highlight.hasSnippet)
                if seen.insert(key).inserted { keys.append(key) }
            }
        }
        let found = keys
        let shared = SharedContext(keys: renderer.commonContext(readBy: TemplateRenderer.StencilPlan.rowTemplate, relativeRoot: "../", title: ""))
        let rendered = try concurrentMap(found.count) { item -> RowStencil? in
            let row = prepared[found[item].post].row
            // The slots' placeholders and `hasSnippet` over the row's keys over the common ones.
            var slots: [String: Any] = RowStencil.placeholders
            slots["hasSnippet"] = found[item].hasSnippet
            let context = ContextLayers([slots, row, shared.keys])
            return RowStencil(rendered: try renderer.render(context, with: TemplateRenderer.StencilPlan.rowTemplate))
        }
        var stencils: [StencilKey: RowStencil] = [:]
        for (key, stencil) in zip(found, rendered) { stencils[key] = stencil }
        return stencils
    }

    /// The context of one keyword page (``PageContext/keywordPage(keyword:count:countLabel:searchHref:archivePage:listing:rows:fileName:)``).
    func pageContext(
        keyword: SearchKeyword, count: Int, countLabel: String, searchHref: String, archivePage: Int?, listing: ListingPages, rows: [[String: Any]]
    ) -> [String: Any] {
        pages.keywordPage(
            keyword: keyword.text, count: count, countLabel: countLabel, searchHref: searchHref, archivePage: archivePage, listing: listing,
            rows: rows, fileName: { Self.fileName(slug: keyword.slug, archivePage: $0) })
    }

    /// Renders and writes one keyword page listing `rows`.
    private func write(
        _ job: PageJob, of listing: KeywordListing, rows: [[String: Any]], renderer: TemplateRenderer, output: SiteOutput
    ) throws {
        let keyword = listing.keyword
        let context = pageContext(
            keyword: keyword, count: listing.count, countLabel: listing.countLabel, searchHref: listing.searchHref, archivePage: job.archivePage,
            listing: listing.listing, rows: rows)
        let html = try renderer.renderPage(
            template: "keyword", context: context, relativeRoot: "../", title: pages.listingTitle(listing.title, archivePage: job.archivePage))
        try output.write(html, to: "keywords/" + Self.fileName(slug: keyword.slug, archivePage: job.archivePage))
    }

    /// The link from a keyword page to the search of its keyword.
    static func searchHref(_ keyword: String) -> String {
        "../search.html?q=" + queryValue(keyword) + "&target=all"
    }

    /// `value` percent-encoded for a query string the way JavaScript's `encodeURIComponent` does: everything but
    /// `A-Z a-z 0-9 - _ . ! ~ * ' ( )` is encoded, and `:` too, so no text of a post can look like a URL scheme.
    static func queryValue(_ value: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
        allowed.remove(charactersIn: ":")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A post row with this keyword's highlights (``KeywordRowData``: ``RowStencil/slots`` and `hasSnippet`); with a
    /// stencil, also the row already rendered (see ``TemplateRenderer/StencilPlan``).
    ///
    /// A row with its HTML holds only the flag and the HTML: the row's wrapper prints nothing else of it, and a page of
    /// such rows has one shape per length, so the page itself is rendered through its stencil (``ShapeStencils``).
    private func context(of post: PreparedPost, _ highlight: Highlight, stencil: RowStencil?) -> [String: Any] {
        if let stencil { return [RowPrerender.flagKey: true, RowPrerender.htmlKey: stencil.filled(with: highlight.values)] }
        var context = post.row
        for (slot, value) in zip(RowStencil.slots, highlight.values) { context[slot] = value }
        context["hasSnippet"] = highlight.hasSnippet
        return context
    }

    /// `keywords/index.html`.
    func indexContext(_ keywords: [(keyword: String, slug: String, count: Int)]) -> [String: Any] {
        pages.keywordIndex(keywords.map { ($0.keyword, Self.fileName(slug: $0.slug, archivePage: nil), $0.count) })
    }
}
