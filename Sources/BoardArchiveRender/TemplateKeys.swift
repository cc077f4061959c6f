import Foundation

/// The keys a template may read: every key that a page's data, a row or an item of one holds, read from their types
/// (``TemplateData``, ``TemplateDataKeys``).
///
/// `TemplateRenderer.load` checks every tag of every template against them, so a misspelt or retired key fails the
/// build with its file and line instead of rendering as nothing. `{{s.key}}` is checked against the interface strings.
/// The vocabulary is one set for all templates (a key valid on one page kind is accepted on another, where it reads
/// as nothing); a test checks that every context the build makes holds only declared keys.
package enum TemplateKeys {
    /// The keys every page and the layout share (``SiteData``, ``PageHeadData``), with `content` (the page inside the
    /// layout, ``RenderedPageData``).
    static let common = TemplateDataKeys.of(SiteData.self).union(TemplateDataKeys.of(PageHeadData.self)).union(
        TemplateDataKeys.of(RenderedPageData.self))

    /// The home page and its board entries.
    static let home = TemplateDataKeys.of(HomeData.self)

    /// A board page, its rows, its pager and the pager's items.
    static let board = TemplateDataKeys.of(BoardPageData.self)

    /// A post page, its replies and its links to other posts.
    static let post = TemplateDataKeys.of(PostPageData.self)

    /// An earlier version's page.
    static let version = TemplateDataKeys.of(VersionPageData.self)

    /// The tombstone at a removed post's address (see "Takedowns").
    static let tombstone = TemplateDataKeys.of(TombstoneData.self)

    /// The search page's menus and the keyword index.
    static let search = TemplateDataKeys.of(SearchPageData.self).union(TemplateDataKeys.of(KeywordIndexData.self))

    /// The keys of every post row (``RowData``).
    package static let row = TemplateDataKeys.of(RowData.self)

    /// The keys of every keyword row (the rows of keyword pages and of the search page).
    package static let keywordRow = TemplateDataKeys.of(KeywordRowData.self)

    /// The keys of a keyword page's context that differ between pages: its own (not its rows' or its pager's), with
    /// `title` and `content` from ``TemplateRenderer``.
    package static let keywordPage = TemplateDataKeys.topLevel(of: KeywordPageData.self).union(["title", "content"])

    /// Every key a template may read.
    static let all: Set<String> = common.union(home).union(board).union(post).union(version).union(tombstone).union(search).union(row).union(
        keywordRow
    )
    .union(TemplateDataKeys.of(KeywordPageData.self))

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
