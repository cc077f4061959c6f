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

    /// The file name of page `page` of a keyword, inside `keywords/`.
    static func fileName(slug: String, page: Int) -> String {
        page <= 1 ? "\(slug).html" : "\(slug)-page-\(page).html"
    }

    /// Writes every page of one keyword; returns how many.
    func writePages(
        keyword: String, slug: String, postIds: [Int], write: (Data, String) throws -> Void, renderPage: SearchPageRenderer
    ) throws -> Int {
        let pagination = Pagination(itemCount: postIds.count, pageSize: Self.pageSize)
        let highlighter = TextHighlighter(query: keyword)
        let title = strings["keywordTitle"].replacingOccurrences(of: "{keyword}", with: keyword)
        for page in 1...pagination.pageCount {
            let rows = postIds[pagination.range(ofPage: page)].compactMap { postsById[$0] }.map { row(for: $0, highlighter: highlighter) }
            let context: [String: Any] = [
                "t": strings.table,
                "keyword": keyword,
                "count": postIds.count,
                "countLabel": strings["keywordCount"].replacingOccurrences(of: "{count}", with: String(postIds.count)),
                "hasPosts": !postIds.isEmpty,
                "posts": rows,
                "page": page,
                "pageCount": pagination.pageCount,
                "pager": pagination.pageCount > 1 ? pager(slug: slug, pagination: pagination, page: page) : false,
                "searchHref": "../search.html?q=" + Self.queryValue(keyword) + "&target=all",
            ]
            let pageTitle = page == 1 ? title : "\(title) (\(pages.strings.pageOf(page, pagination.pageCount)))"
            let html = try renderPage("keyword", context, "../", pageTitle, [])
            try write(Data(html.utf8), "keywords/" + Self.fileName(slug: slug, page: page))
        }
        return pagination.pageCount
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

    /// The pager of a keyword, the same shape as the board pager (`partials/pager`).
    func pager(slug: String, pagination: Pagination, page: Int) -> [String: Any] {
        let count = pagination.pageCount
        let s = pages.strings
        func item(_ kind: String, _ label: String, _ aria: String, target: Int, enabled: Bool, current: Bool = false) -> [String: Any] {
            [
                "kind": kind, "label": label, "ariaLabel": aria, "href": enabled ? Self.fileName(slug: slug, page: target) : "",
                "isCurrent": current, "isDisabled": !enabled,
            ]
        }
        var items: [[String: Any]] = [
            item("first", s["firstPage"], s["firstPageLabel"], target: 1, enabled: page > 1),
            item("previous", s["previousPage"], s["previousPageLabel"], target: page - 1, enabled: page > 1),
        ]
        for number in pagination.window(around: page) {
            items.append(item("number", String(number), s.pageNumber(number), target: number, enabled: true, current: number == page))
        }
        items.append(item("next", s["nextPage"], s["nextPageLabel"], target: page + 1, enabled: page < count))
        items.append(item("last", s["lastPage"], s["lastPageLabel"], target: count, enabled: page < count))
        return ["items": items, "page": page, "pageCount": count, "label": s.pageOf(page, count)]
    }

    /// `keywords/index.html`: `keywords` (`keyword`, `href`, `count`, `countLabel`), `hasKeywords`, `t`.
    func indexContext(_ keywords: [(keyword: String, slug: String, count: Int)]) -> [String: Any] {
        [
            "t": strings.table,
            "hasKeywords": !keywords.isEmpty,
            "keywords": keywords.map {
                [
                    "keyword": $0.keyword, "href": Self.fileName(slug: $0.slug, page: 1), "count": $0.count,
                    "countLabel": strings["keywordCount"].replacingOccurrences(of: "{count}", with: String($0.count)),
                ] as [String: Any]
            },
        ]
    }
}
