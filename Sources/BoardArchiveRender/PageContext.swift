import BoardArchiveModel
import Foundation

/// Builds the Mustache contexts of pages and rows from store values.
///
/// Each context is made from a typed value (``TemplateData``, ``PageData.swift``) as a `[String: Any]` dictionary
/// (swift-mustache reads them without reflection) whose keys are always present: a missing key would make Mustache
/// look it up in an enclosing context and render the wrong value. Text is escaped by the templates (`{{x}}`); only `bodyHTML` (cmark-gfm output) and the
/// layout's `content` are inserted raw.
package struct PageContext: Sendable {
    /// Interface strings.
    package let strings: SiteStrings
    /// The build's clock and time zone.
    package let clock: ArchiveClock

    package init(strings: SiteStrings, clock: ArchiveClock) {
        self.strings = strings
        self.clock = clock
    }

    /// The context of one post row, for the `partials/post-row` partial (and any listing that reuses it): ``RowData``.
    /// - Parameter root: the relative root of the page the row appears on.
    package func row(for post: Post, root: String) -> [String: Any] {
        rowData(for: post, root: root).context
    }

    /// One post row (``RowData``); `titleHTML` and `writerHTML` are the same bytes as `{{title}}` and `{{writer}}`
    /// (``HTMLEscaping``).
    package func rowData(for post: Post, deletedLastSeen: Date? = nil, root: String) -> RowData {
        RowData(
            post: summary(of: post, deletedLastSeen: deletedLastSeen), href: root + SitePaths.post(post.postId),
            titleHTML: HTMLEscaping.escape(displayTitle(post)),
            writerHTML: HTMLEscaping.escape(writerLabel(post)))
    }

    /// The fields a row and a post page share.
    /// `deletedLastSeen`: when a post the source deleted was last seen, for its mark (nil: no mark).
    func summary(of post: Post, deletedLastSeen: Date? = nil) -> PostSummaryData {
        let attachments = post.shownAttachmentsCount
        let mark = deletedLastSeen.map(deletedDay)
        return PostSummaryData(
            postId: post.postId, postType: post.postType.rawValue, title: displayTitle(post), writer: writerLabel(post),
            isAnonymous: post.isAnonymous, iso: clock.machineTimestamp(for: post.createdDateTime),
            dateLabel: clock.shortLabel(for: post.createdDateTime), fullDate: clock.fullLabel(for: post.createdDateTime),
            viewCount: post.viewCount, commentsCount: post.commentsCount, hasComments: post.commentsCount > 0,
            attachmentsCount: attachments, hasAttachment: attachments > 0, isNotice: post.postType == .notice,
            isReply: post.postType == .reply, isNew: clock.isToday(post.createdDateTime), isDeleted: mark != nil,
            deletedLabel: mark?.label ?? "", deletedIso: mark?.iso ?? "", deletedDay: mark?.day ?? "")
    }

    /// The mark of something the source deleted, last seen at `date`.
    func deletedDay(_ date: Date) -> DayData {
        let day = clock.dayLabel(for: date)
        return DayData(iso: clock.machineTimestamp(for: date), day: day, label: strings["deletedRow"].replacingOccurrences(of: "{date}", with: day))
    }

    /// The writer as pages and feeds show it: the display name, or the anonymous label.
    package func writerLabel(_ post: Post) -> String {
        post.shownWriterName(anonymousLabel: strings["anonymous"])
    }

    /// A title that is never blank (a blank link would be invisible).
    package func displayTitle(_ post: Post) -> String {
        // Most titles start with a visible ASCII or Hangul character: no need for Foundation's trimming.
        if let first = post.title.unicodeScalars.first, (0x21..<0x7F).contains(first.value) || (0xAC00...0xD7A3).contains(first.value) {
            return post.title
        }
        return post.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? strings["untitled"] : post.title
    }

    /// A short link to another post.
    func link(to post: Post, root: String) -> LinkData {
        LinkData(href: root + SitePaths.post(post.postId), title: displayTitle(post), postId: post.postId)
    }

    /// The pager of a listing page (`page` nil: the front page), in the order latest, newer, numbered archive
    /// pages (newest first), older, oldest.
    ///
    /// Each item's `href` is a file name from `fileName`, in the listing's folder; disabled items have an empty `href`
    /// and templates render them without a link. Archive pages are numbered from the oldest (1), so their numbers
    /// never change; `label` is the page's own name ("latest posts" or "page n"). Nil when everything fits the front page.
    package func pager(_ listing: ListingPages, page: Int?, fileName: (Int?) -> String) -> PagerData? {
        let count = listing.archivePageCount
        guard count > 0 else { return nil }
        func item(_ kind: String, _ label: String, _ aria: String, target: Int??, current: Bool = false) -> PagerItemData {
            PagerItemData(
                kind: kind, label: label, ariaLabel: aria, href: target.map { fileName($0) } ?? "", isCurrent: current, isDisabled: target == nil)
        }
        // A target is `.some(nil)` for the front page, `.some(c)` for archive page c, nil for a disabled item.
        var newer: Int?? = nil
        var older: Int?? = .some(count - 1)
        if let page {
            newer = page + 1 < count ? .some(page + 1) : .some(nil)
            older = page > 0 ? .some(page - 1) : nil
        }
        var items: [PagerItemData] = [
            item("first", strings["firstPage"], strings["firstPageLabel"], target: page == nil ? nil : .some(nil)),
            item("previous", strings["previousPage"], strings["previousPageLabel"], target: newer),
        ]
        for number in listing.window(around: page) {
            items.append(item("number", String(number + 1), strings.pageNumber(number + 1), target: .some(number), current: number == page))
        }
        items.append(item("next", strings["nextPage"], strings["nextPageLabel"], target: older))
        items.append(item("last", strings["lastPage"], strings["lastPageLabel"], target: page == 0 ? nil : .some(0)))
        return PagerData(items: items, label: page.map { strings.pageNumber($0 + 1) } ?? strings["latestPosts"])
    }
}
