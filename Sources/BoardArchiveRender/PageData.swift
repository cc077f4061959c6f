import BoardArchiveModel

// What each template is given (see ``TemplateData``): one type per page kind, row and item. A stored property is a
// key its templates may read; the template checks accept exactly the keys of these types (``TemplateKeys``).

/// What every page of a build and the layout share (``TemplateRenderer/commonContext(relativeRoot:title:scripts:)``),
/// made once per build; the layout also reads ``PageHeadData`` and `content` (``RenderedPageData``).
package struct SiteData: TemplateData {
    package var lang: String
    /// The interface strings, `{{s.key}}`.
    package var s: StringsTable
    /// The archive's time zone (IANA id) and its offset in minutes (the scripts' fallback).
    package var timeZone: String
    package var timeZoneOffset: Int
    /// Whether the pages ask search engines not to index them.
    package var noindex: Bool
    /// The board's feed on board and post pages (they set it), else false.
    package var boardFeed: FeedLinkData?
}

/// What differs from page to page in every page's head.
package struct PageHeadData: TemplateData {
    /// The relative path from the page to the site root (`""`, `"../"`); every link is written `{{root}}some/file.html`.
    package var root: String
    /// The page's title (the layout appends the site title).
    package var title: String
    /// Extra classic scripts of the page, relative to it.
    package var scripts: [ScriptData]
}

/// The page rendered inside the layout.
package struct RenderedPageData: TemplateData {
    package var content: String
}

/// The interface strings as the context holds them: the table itself (``ContextShape`` reads it as one value).
package struct StringsTable: TemplatePrepared {
    package var table: [String: String]
    package var templateValue: Any { table }

    package init(_ table: [String: String]) { self.table = table }
    /// The keys of the strings are checked against the table, not read from a type.
    package init(from decoder: any Decoder) throws { table = [:] }
    package func encode(to encoder: any Encoder) throws { preconditionFailure("the strings table enters a context as it is") }
}

/// One extra script of a page.
package struct ScriptData: TemplateData {
    package var src: String
}

/// A feed link in the page's head.
package struct FeedLinkData: TemplateData {
    package var href: String
    package var title: String
}

/// The fields a post row and a post page share.
package struct PostSummaryData: TemplateInlined {
    package var postId: Int
    package var postType: String
    package var title: String
    package var writer: String
    package var isAnonymous: Bool
    /// UTC, for `<time datetime>`.
    package var iso: String
    /// `HH:mm` today, else `yy-MM-dd`.
    package var dateLabel: String
    package var fullDate: String
    package var viewCount: Int
    package var commentsCount: Int
    package var hasComments: Bool
    package var attachmentsCount: Int
    package var hasAttachment: Bool
    package var isNotice: Bool
    package var isReply: Bool
    package var isNew: Bool
    /// Whether the post is marked deleted at the source (`build.deleted-posts: marked`), and its mark: the row's label
    /// ("deleted at the source, last seen on …") and the day it was last seen.
    package var isDeleted: Bool
    package var deletedLabel: String
    package var deletedIso: String
    package var deletedDay: String
}

/// One post row (`partials/post-row`): the summary, the post's address, and the title and writer escaped, which the
/// partial prints raw (`{{{titleHTML}}}`) because keyword and search rows put `<mark>` in them.
package struct RowData: TemplateInlined {
    package var post: PostSummaryData
    package var href: String
    package var titleHTML: String
    package var writerHTML: String
}

/// A short link to another post.
package struct LinkData: TemplateData {
    package var href: String
    package var title: String
    package var postId: Int
}

/// The pager of a listing page: its items and the page's own name ("latest posts" or "page n").
package struct PagerData: TemplateData {
    package var items: [PagerItemData]
    package var label: String
}

/// One pager item; a disabled item has an empty `href`.
package struct PagerItemData: TemplateData {
    /// `first`, `previous`, `number`, `next` or `last`.
    package var kind: String
    package var label: String
    package var ariaLabel: String
    package var href: String
    package var isCurrent: Bool
    package var isDisabled: Bool
}

/// The home page.
package struct HomeData: TemplateData {
    package var boards: [HomeBoardData]
    package var hasBoards: Bool
}

/// One board on the home page.
package struct HomeBoardData: TemplateData {
    package var boardId: Int
    package var name: String
    package var href: String
    package var postCount: Int
    package var postCountLabel: String
    package var hasPosts: Bool
    package var isNew: Bool
    /// The board's newest post's date, false for an empty board.
    package var latest: DateData?
    /// When the source deleted the board and it is marked: when it was last seen.
    package var deleted: DayData?
}

/// A day as a mark shows it: the machine timestamp, the day in the archive's time zone, and the mark's label.
package struct DayData: TemplateData {
    package var iso: String
    package var day: String
    package var label: String
}

/// A date as pages show it.
package struct DateData: TemplateData {
    package var iso: String
    package var dateLabel: String
    package var fullDate: String
}

/// A board's listing page (front or archive page).
package struct BoardPageData: TemplateData {
    package var boardId: Int
    package var boardName: String
    package var postCount: Int
    /// Empty on archive pages, which never show totals.
    package var postCountLabel: String
    package var hasPosts: Bool
    package var isFront: Bool
    package var posts: [RowData]
    /// False when everything fits the front page.
    package var pager: PagerData?
    package var boardFeed: FeedLinkData
    /// When the source deleted the board and it is marked: when it was last seen.
    package var deleted: DayData?
}

/// A post's page.
package struct PostPageData: TemplateData {
    package var post: PostSummaryData
    package var boardId: Int
    package var boardName: String
    /// The board's first page.
    package var boardHref: String
    /// The board page that lists the post.
    package var backHref: String
    /// Raw, from cmark-gfm.
    package var bodyHTML: String
    package var parent: LinkData?
    package var parentMissing: Bool
    package var parentRemoved: Bool
    package var hasReplies: Bool
    package var replies: [RowData]
    package var previous: LinkData?
    package var next: LinkData?
    package var hasNeighbours: Bool
    package var boardFeed: FeedLinkData
    /// The post's edit and earlier versions, when the archive holds any.
    package var edited: EditedData?
}

/// A post edited at the source: when the change was seen, and its earlier versions, oldest first.
package struct EditedData: TemplateData {
    package var iso: String
    /// `yyyy-MM-dd` in the archive's time zone.
    package var day: String
    package var versions: [VersionLinkData]
}

/// A link to an earlier version's page, with when that version was seen.
package struct VersionLinkData: TemplateData {
    package var href: String
    /// "Version 2".
    package var label: String
    /// "seen 2024-05-01 – 2024-05-03".
    package var seenLabel: String
}

/// The page of an earlier version of a post (`noindex`): its fields then, its body, and what the version after it
/// changed, word by word.
package struct VersionPageData: TemplateData {
    /// The version's own fields, as a post page shows them.
    package var post: PostSummaryData
    package var version: Int
    package var versionLabel: String
    package var boardName: String
    package var boardHref: String
    /// The post's page (its current version). Not its current title: a new version rewrites only the page of the
    /// version it replaces.
    package var postHref: String
    /// When the version was first and last seen at the source.
    package var firstIso: String
    package var firstDay: String
    package var lastIso: String
    package var lastDay: String
    /// Raw, from cmark-gfm.
    package var bodyHTML: String
    /// The comparison with the next version (``WordDiff``): raw HTML with every text escaped.
    package var titleChanged: Bool
    package var titleDiffHTML: String
    package var bodyChanged: Bool
    package var bodyDiffHTML: String
    package var noindex: Bool
}

/// The tombstone at the address of a post a redaction removed.
package struct TombstoneData: TemplateData {
    package var postId: Int
    package var boardName: String
    package var boardHref: String
    package var backHref: String
    /// `yyyy-MM-dd` in the archive's time zone.
    package var removedDate: String
    package var removedIso: String
    /// Whether the source deleted the post (`build.deleted-posts: left-out`); else a takedown removed it.
    package var deletedAtSource: Bool
    package var noindex: Bool
}

/// The search page: its menus and the result row's template (``SearchRowTemplate``).
package struct SearchPageData: TemplateData {
    package var targets: [SearchTargetData]
    package var boards: [BoardOptionData]
    package var rowTemplate: String
}

/// One choice of the search target menu.
package struct SearchTargetData: TemplateData {
    package var value: String
    package var label: String
}

/// One choice of the board menu.
package struct BoardOptionData: TemplateData {
    package var boardId: Int
    package var name: String
}

/// The keyword index, `keywords/index.html`.
package struct KeywordIndexData: TemplateData {
    package var keywords: [KeywordLinkData]
    package var hasKeywords: Bool
}

/// One keyword of the index.
package struct KeywordLinkData: TemplateData {
    package var keyword: String
    package var href: String
    package var count: Int
    package var countLabel: String
}

/// A keyword page (`title` and `content` come from the layout's data).
package struct KeywordPageData: TemplateData {
    package var keyword: String
    package var count: Int
    /// Empty on archive pages.
    package var countLabel: String
    package var isFront: Bool
    package var hasPosts: Bool
    package var posts: PreparedRows<KeywordRowData>
    package var pager: PagerData?
    package var searchHref: String
}

/// A row of a keyword page or of the search page: a post row with its highlights (escaped text with `<mark>` around
/// each match: ``RowStencil/slots``) and its board.
package struct KeywordRowData: TemplateInlined {
    package var row: RowData
    package var snippetHTML: String
    package var hasSnippet: Bool
    package var boardName: String
    package var hasBoardName: Bool
}

/// Rows made once and reused (a post's keyword row is prepared once per batch, then given each keyword's highlights).
package struct PreparedRows<Row: TemplateData>: TemplatePrepared {
    package var rows: [[String: Any]]
    package var templateValue: Any { rows }

    package init(_ rows: [[String: Any]]) { self.rows = rows }
    /// Reads the keys of `Row` (``TemplateDataKeys``).
    package init(from decoder: any Decoder) throws {
        _ = try [Row](from: decoder)
        rows = []
    }
    package func encode(to encoder: any Encoder) throws { preconditionFailure("prepared rows enter a context as they are") }
}
