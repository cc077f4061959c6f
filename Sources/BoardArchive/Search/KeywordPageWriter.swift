import Foundation

/// Renders the pages of keywords: `keywords/<slug>.html`, `keywords/<slug>-page-<n>.html` and the index.
///
/// Pages need no JavaScript: every row is rendered by Mustache with `<mark>` around each occurrence of the
/// keyword's words in the title and the writer, and a contents snippet around the first occurrence.
struct KeywordPageWriter {
    static let pageSize = 30
    let pages: PageContext
    let strings: SearchStrings
    let postsById: [Int: Post]
    let boardNames: [Int: String]

    /// The file name of a keyword's front page (`archivePage` nil) or archive page `archivePage`, inside `keywords/`.
    static func fileName(slug: String, archivePage: Int?) -> String {
        archivePage.map { "\(slug)-page-\($0 + 2).html" } ?? "\(slug).html"
    }

    /// The pages of a keyword whose matches are `postIds` in listing order (notices first): the front page and the
    /// archive pages, each with the ids it lists (see ``ListingPages``).
    static func pages(of postIds: [Int], isNotice: (Int) -> Bool) -> (listing: ListingPages, pages: [(archivePage: Int?, postIds: ArraySlice<Int>)]) {
        let notices = postIds.prefix(while: isNotice).count
        let listing = ListingPages(pinnedCount: notices, itemCount: postIds.count - notices)
        var result: [(archivePage: Int?, postIds: ArraySlice<Int>)] = [(nil, postIds[0..<(notices + listing.frontCount)])]
        for page in stride(from: listing.archivePageCount - 1, through: 0, by: -1) {
            let range = listing.range(ofArchivePage: page)
            let newest = notices + listing.itemCount - range.upperBound
            result.append((page, postIds[newest..<(newest + range.count)]))
        }
        return (listing, result)
    }

    /// Writes every page of one keyword; returns how many.
    func writePages(
        keyword: String, slug: String, postIds: [Int], write: (Data, String) throws -> Void, renderPage: SearchPageRenderer
    ) throws -> Int {
        let (listing, keywordPages) = Self.pages(of: postIds) { postsById[$0]?.postType == .notice }
        let highlighter = TextHighlighter(query: keyword)
        let title = strings["keywordTitle"].replacingOccurrences(of: "{keyword}", with: keyword)
        for (archivePage, ids) in keywordPages {
            let rows = ids.compactMap { postsById[$0] }.map { row(for: $0, highlighter: highlighter) }
            let context: [String: Any] = [
                "t": strings.table,
                "keyword": keyword,
                "count": postIds.count,
                "countLabel": archivePage == nil ? strings["keywordCount"].replacingOccurrences(of: "{count}", with: String(postIds.count)) : "",
                "isFront": archivePage == nil,
                "hasPosts": !postIds.isEmpty,
                "posts": rows,
                "pager": pages.pager(listing, page: archivePage) { Self.fileName(slug: slug, archivePage: $0) },
                "searchHref": "../search.html?q=" + Self.queryValue(keyword) + "&target=all",
            ]
            let html = try renderPage("keyword", context, "../", pages.listingTitle(title, archivePage: archivePage), [])
            try write(Data(html.utf8), "keywords/" + Self.fileName(slug: slug, archivePage: archivePage))
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

    /// A post row with highlight parts: the keys of `PageContext.row` plus `titleParts`, `writerParts`
    /// (`text`, `marked`), `hasSnippet`, `snippetParts` and `boardName`.
    func row(for post: Post, highlighter: TextHighlighter) -> [String: Any] {
        var context = pages.row(for: post, root: "../")
        let title = (context["title"] as? String) ?? post.title
        let writer = (context["writer"] as? String) ?? post.writer.displayName
        context["titleParts"] = Self.context(of: highlighter.parts(of: title))
        context["writerParts"] = Self.context(of: highlighter.parts(of: writer))
        let snippet = highlighter.snippet(of: post.contents)
        context["hasSnippet"] = snippet != nil
        context["snippetParts"] = Self.context(of: snippet ?? [])
        context["boardName"] = boardNames[post.boardId] ?? ""
        return context
    }

    static func context(of parts: [TextHighlighter.Part]) -> [[String: Any]] {
        parts.map { ["text": $0.text, "marked": $0.marked] }
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
