import Foundation

/// Renders the pages of keywords: `keywords/<slug>.html`, `keywords/<slug>-page-<n>.html` and the index.
///
/// Pages need no JavaScript: every row is rendered by Mustache with `<mark>` around each occurrence of the
/// keyword's words in the title and the writer, and a contents snippet around the first occurrence.
struct KeywordPageWriter: Sendable {
    let pages: PageContext
    let strings: SearchStrings
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

    /// One page to render: its keyword (an index into the keywords), which page, the posts it lists, and the
    /// creation time and id of the oldest of them (the order pages are rendered in).
    private struct PageJob {
        var keyword: Int
        var archivePage: Int?
        var postIds: [Int]
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
        var contents: ClusteredText
    }

    /// Writes the pages of every keyword whose digests changed; returns how many pages the keywords have in all.
    ///
    /// Pages of all keywords are rendered together, oldest first, in batches: a post listed under many keywords is
    /// read from the store, and cut into clusters and normalised, once per batch instead of once per keyword.
    /// The matches of one keyword at a time are collected from `blocks` (in search order) and let go once its
    /// pages' digests are known; only the pages to render are kept, with their post ids.
    func writePages(
        of keywords: [SearchKeyword], blocks: [SearchPhase.Block], store: ArchiveStore, renderer: TemplateRenderer, output: SiteOutput,
        base: BuildDigest
    ) throws -> Int {
        var jobs: [PageJob] = []
        var listings: [KeywordListing] = []
        var pageCount = 0
        for (index, keyword) in keywords.enumerated() {
            let results = KeywordResults(keyword: keyword, blocks: blocks)
            let (listing, keywordPages) = Self.pages(count: results.postIds.count, pinned: results.pinned)
            listings.append(
                KeywordListing(
                    keyword: keyword, count: results.postIds.count, listing: listing,
                    title: strings["keywordTitle"].replacingOccurrences(of: "{keyword}", with: keyword.text),
                    countLabel: strings["keywordCount"].replacingOccurrences(of: "{count}", with: String(results.postIds.count)),
                    searchHref: "../search.html?q=" + Self.queryValue(keyword.text) + "&target=all"))
            pageCount += keywordPages.count
            for page in keywordPages {
                var digest = base
                digest.add("keyword")
                digest.add(results.keyword.text)
                listing.addPager(of: page.archivePage, to: &digest)
                for row in page.range {
                    digest.add(results.postIds[row])
                    digest.add(results.hashes[row])
                    digest.add(boardNames[results.boards[row]] ?? "")
                    digest.add(pages.clock.isToday(Date(timeIntervalSince1970: TimeInterval(results.created[row]))))
                }
                let path = "keywords/" + Self.fileName(slug: results.keyword.slug, archivePage: page.archivePage)
                if try output.needsRendering(path, digest: digest) {
                    let oldest =
                        page.range.isEmpty ? (Int.max, 0) : (results.created[page.range.upperBound - 1], results.postIds[page.range.upperBound - 1])
                    jobs.append(PageJob(keyword: index, archivePage: page.archivePage, postIds: Array(results.postIds[page.range]), oldest: oldest))
                }
            }
        }
        // Oldest first by each page's oldest row: pages of different keywords listing the same posts fall in one batch.
        jobs.sort { lhs, rhs in
            lhs.oldest != rhs.oldest ? lhs.oldest < rhs.oldest : (lhs.keyword, lhs.archivePage ?? -1) < (rhs.keyword, rhs.archivePage ?? -1)
        }
        let highlighters = keywords.map { TextHighlighter(query: $0.text) }
        let keywordListings = listings
        for start in stride(from: 0, to: jobs.count, by: 128) {
            let batch = Array(jobs[start..<min(jobs.count, start + 128)])
            var unique: [Int] = []
            var seen = Set<Int>()
            for job in batch {
                for id in job.postIds where seen.insert(id).inserted { unique.append(id) }
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
                var row = pages.row(for: post, root: "../")
                row["boardName"] = boardNames[post.boardId] ?? ""
                let title = (row["title"] as? String) ?? post.title
                let writer = (row["writer"] as? String) ?? post.writer.displayName
                return PreparedPost(row: row, title: ClusteredText(title), writer: ClusteredText(writer), contents: ClusteredText(post.contents))
            }
            let lookup = Dictionary(uniqueKeysWithValues: zip(ids, prepared.indices))
            _ = try concurrentMap(batch.count) { item in
                let job = batch[item]
                let rows = job.postIds.compactMap { lookup[$0] }.map { row(for: prepared[$0], highlighter: highlighters[job.keyword]) }
                try write(job, of: keywordListings[job.keyword], rows: rows, renderer: renderer, output: output)
            }
        }
        return pageCount
    }

    /// Renders and writes one keyword page listing `rows`.
    private func write(
        _ job: PageJob, of listing: KeywordListing, rows: [[String: Any]], renderer: TemplateRenderer, output: SiteOutput
    ) throws {
        let keyword = listing.keyword
        let context: [String: Any] = [
            "t": strings.table,
            "keyword": keyword.text,
            "count": listing.count,
            "countLabel": job.archivePage == nil ? listing.countLabel : "",
            "isFront": job.archivePage == nil,
            "hasPosts": listing.count > 0,
            "posts": rows,
            "pager": pages.pager(listing.listing, page: job.archivePage) { Self.fileName(slug: keyword.slug, archivePage: $0) },
            "searchHref": listing.searchHref,
        ]
        let html = try renderer.renderPage(
            template: "keyword", context: context, relativeRoot: "../", title: pages.listingTitle(listing.title, archivePage: job.archivePage))
        try output.write(html, to: "keywords/" + Self.fileName(slug: keyword.slug, archivePage: job.archivePage))
    }

    /// `value` percent-encoded for a query string the way JavaScript's `encodeURIComponent` does: everything but
    /// `A-Z a-z 0-9 - _ . ! ~ * ' ( )` is encoded, and `:` too, so no text of a post can look like a URL scheme.
    static func queryValue(_ value: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
        allowed.remove(charactersIn: ":")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A post row with highlights: the keys of `PageContext.row` plus `titleHTML`, `writerHTML`, `hasSnippet`,
    /// `snippetHTML` (escaped text with `<mark>` around each match, inserted raw with `{{{…}}}`) and `boardName`.
    private func row(for post: PreparedPost, highlighter: TextHighlighter) -> [String: Any] {
        var context = post.row
        context["titleHTML"] = TextHighlighter.html(of: highlighter.parts(in: post.title))
        context["writerHTML"] = TextHighlighter.html(of: highlighter.parts(in: post.writer))
        let snippet = highlighter.snippet(in: post.contents)
        context["hasSnippet"] = snippet != nil
        context["snippetHTML"] = TextHighlighter.html(of: snippet ?? [])
        return context
    }

    /// `keywords/index.html`: `keywords` (`keyword`, `href`, `count`, `countLabel`), `hasKeywords`, `t`.
    func indexContext(_ keywords: [(keyword: String, slug: String, count: Int)]) -> [String: Any] {
        [
            "t": strings.table,
            "hasKeywords": !keywords.isEmpty,
            "keywords": keywords.map {
                [
                    "keyword": $0.keyword, "href": Self.fileName(slug: $0.slug, archivePage: nil), "count": $0.count,
                    "countLabel": strings["keywordCount"].replacingOccurrences(of: "{count}", with: String($0.count)),
                ] as [String: Any]
            },
        ]
    }
}
