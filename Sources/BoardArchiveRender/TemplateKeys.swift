import Foundation

/// The keys a template may read: every key that a page context, a row or an item of one holds, declared once
/// here beside the contexts that fill them.
///
/// `TemplateRenderer.load` checks every tag of every template against them, so a misspelt or retired key fails the
/// build with its file and line instead of rendering as nothing. `{{s.key}}` is checked against the interface strings.
/// The vocabulary is one set for all templates (a key valid on one page kind is accepted on another, where it reads
/// as nothing); a test checks that every context the build makes holds only declared keys.
package enum TemplateKeys {
    /// The keys every page and the layout share (``TemplateRenderer/commonContext(relativeRoot:title:scripts:)``),
    /// with `content` (the page inside the layout).
    static let common: Set<String> = [
        "root", "lang", "s", "title", "timeZone", "timeZoneOffset", "scripts", "src", "noindex", "boardFeed", "content",
    ]

    /// The home page and its board entries.
    static let home: Set<String> = [
        "boards", "hasBoards", "boardId", "name", "href", "postCount", "postCountLabel", "hasPosts", "isNew", "latest", "iso", "dateLabel",
        "fullDate",
    ]

    /// A board page, its pager and the pager's items.
    static let board: Set<String> = [
        "boardId", "boardName", "postCount", "postCountLabel", "hasPosts", "isFront", "posts", "pager", "items", "label", "kind", "ariaLabel",
        "href", "isCurrent", "isDisabled",
    ]

    /// A post page and its links to other posts.
    static let post: Set<String> = [
        "boardId", "boardName", "boardHref", "backHref", "bodyHTML", "parent", "parentMissing", "hasReplies", "replies", "previous", "next",
        "hasNeighbours", "parentRemoved",
    ]

    /// The tombstone at a removed post's address (see "Takedowns").
    static let tombstone: Set<String> = ["postId", "boardName", "boardHref", "backHref", "removedDate", "removedIso", "noindex"]

    /// The search page's menus and the keyword index.
    static let search: Set<String> = [
        "targets", "value", "label", "boards", "boardId", "name", "keywords", "hasKeywords", "keyword", "count", "countLabel", "rowTemplate",
    ]

    /// The keys of every keyword row (the rows of keyword pages and of the search page).
    package static let keywordRow = PageContext.rowKeys.union(RowStencil.slots).union(["boardName", "hasBoardName", "hasSnippet"])

    /// The keys of a keyword page's context that differ between pages (`title` and `content` from ``TemplateRenderer``).
    package static let keywordPage: Set<String> = [
        "keyword", "count", "countLabel", "isFront", "hasPosts", "posts", "pager", "searchHref", "title", "content",
    ]

    /// Every key a template may read.
    static let all: Set<String> = common.union(home).union(board).union(post).union(tombstone).union(search).union(PageContext.rowKeys)
        .union(keywordRow).union(keywordPage)

    /// The first tag of `text` that reads a key no context holds, with its 1-based line, or nil.
    ///
    /// Names are checked segment by segment (`parent.href`); after `s.` the segment must be an interface string.
    /// `.` (the current item), comments, partials, closing tags and blocks are not keys. A template that changes its
    /// delimiters (`{{=<% %>=}}`) is not checked.
    static func unknownKey(in text: String, strings: Set<String>) -> (name: String, line: Int)? {
        if text.contains("{{=") { return nil }
        for tag in TemplateRenderer.tags(in: text) where ["", "#", "^", "&", "{"].contains(tag.sigil) {
            // swift-mustache skips any whitespace inside a tag, line breaks included.
            var name = tag.name.trimmingCharacters(in: .whitespacesAndNewlines)
            // A transform such as `uppercased(name)` reads `name`.
            if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
                name = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
            }
            guard name != "." else { continue }
            let segments = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let known: Bool
            if segments.first == "s", segments.count > 1 {
                known = segments.count == 2 && strings.contains(segments[1])
            } else {
                known = segments.allSatisfy { all.contains($0) }
            }
            if !known {
                let line = TemplateRenderer.line(of: tag.range.lowerBound, in: text)
                return (name, line)
            }
        }
        return nil
    }
}
