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

    /// Writes the pages of one keyword whose rows changed; returns how many pages the keyword has.
    func writePages(of results: KeywordResults, store: ArchiveStore, renderer: TemplateRenderer, output: SiteOutput, base: BuildDigest) throws
        -> Int
    {
        let keyword = results.keyword
        let (listing, keywordPages) = Self.pages(count: results.postIds.count, pinned: results.pinned)
        var needed: [(archivePage: Int?, range: Range<Int>)] = []
        for page in keywordPages {
            var digest = base
            digest.add("keyword")
            digest.add(keyword.text)
            listing.addPager(of: page.archivePage, to: &digest)
            for index in page.range {
                digest.add(results.postIds[index])
                digest.add(results.hashes[index])
                digest.add(boardNames[results.boards[index]] ?? "")
                digest.add(pages.clock.isToday(Date(timeIntervalSince1970: TimeInterval(results.created[index]))))
            }
            let path = "keywords/" + Self.fileName(slug: keyword.slug, archivePage: page.archivePage)
            if try output.needsRendering(path, digest: digest) { needed.append(page) }
        }
        let title = strings["keywordTitle"].replacingOccurrences(of: "{keyword}", with: keyword.text)
        let highlighter = TextHighlighter(query: keyword.text)
        for start in stride(from: 0, to: needed.count, by: 64) {
            let batch = Array(needed[start..<min(needed.count, start + 64)])
            let posts: [Int: Post]
            do { posts = try store.posts(ids: batch.flatMap { results.postIds[$0.range] }) } catch {
                throw BuildError(phase: .store, underlying: error, location: "keyword \(keyword.text)")
            }
            _ = try concurrentMap(batch.count) { item in
                let page = batch[item]
                let rows = results.postIds[page.range].compactMap { posts[$0] }.map { row(for: $0, highlighter: highlighter) }
                let context: [String: Any] = [
                    "t": strings.table,
                    "keyword": keyword.text,
                    "count": results.postIds.count,
                    "countLabel": page.archivePage == nil
                        ? strings["keywordCount"].replacingOccurrences(of: "{count}", with: String(results.postIds.count)) : "",
                    "isFront": page.archivePage == nil,
                    "hasPosts": !results.postIds.isEmpty,
                    "posts": rows,
                    "pager": pages.pager(listing, page: page.archivePage) { Self.fileName(slug: keyword.slug, archivePage: $0) },
                    "searchHref": "../search.html?q=" + Self.queryValue(keyword.text) + "&target=all",
                ]
                let html = try renderer.renderPage(
                    template: "keyword", context: context, relativeRoot: "../", title: pages.listingTitle(title, archivePage: page.archivePage))
                try output.write(html, to: "keywords/" + Self.fileName(slug: keyword.slug, archivePage: page.archivePage))
            }
        }
        return keywordPages.count
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
    func row(for post: Post, highlighter: TextHighlighter) -> [String: Any] {
        var context = pages.row(for: post, root: "../")
        let title = (context["title"] as? String) ?? post.title
        let writer = (context["writer"] as? String) ?? post.writer.displayName
        context["titleHTML"] = TextHighlighter.html(of: highlighter.parts(of: title))
        context["writerHTML"] = TextHighlighter.html(of: highlighter.parts(of: writer))
        let snippet = highlighter.snippet(of: post.contents)
        context["hasSnippet"] = snippet != nil
        context["snippetHTML"] = TextHighlighter.html(of: snippet ?? [])
        context["boardName"] = boardNames[post.boardId] ?? ""
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
