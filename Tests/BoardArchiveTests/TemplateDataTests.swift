import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Page data are typed values: the context a template gets is encoded from the value, and the keys the template checks
/// accept are read from the type; the two must agree.
@Suite("Template data")
struct TemplateDataTests {
    static let pages = PageContext(strings: TemplateKeysTests.strings, clock: TemplateKeysTests.clock)

    /// A post page with a parent, neighbours and a reply: every optional value present.
    static func fullPostPage() -> [String: Any] {
        let posts = SiteFixture.posts
        let neighbours = PostNeighbours(
            board: SiteFixture.boards[1], backPage: 1, previous: posts[1], next: posts[2], parent: posts[3], parentMissing: false,
            replies: [posts[4]])
        let seen = SiteFixture.now.addingTimeInterval(-86_400)
        let history = SourceHistory(
            deletedLastSeen: seen,
            versions: VersionKeys(earlier: [VersionKey(version: 1, contentHash: "a", firstSeen: seen, lastSeen: seen)], currentSince: SiteFixture.now)
        )
        return pages.postPage(posts[0], bodyHTML: "<p>x</p>", neighbours: neighbours, history: history)
    }

    @Test("the keys read from a type are the keys its encoded value holds, nested values' and lists' included")
    func readKeysEqualEncodedKeys() {
        #expect(TemplateKeysTests.keys(of: Self.fullPostPage()) == TemplateDataKeys.of(PostPageData.self))
        let listing = ListingPages(pinnedCount: 0, itemCount: 61)
        let board = Self.pages.boardPage(
            board: SiteFixture.boards[1], rows: Array(SiteFixture.posts.prefix(3)), boardDeletedLastSeen: SiteFixture.now, listing: listing,
            archivePage: 0)
        #expect(TemplateKeysTests.keys(of: board) == TemplateDataKeys.of(BoardPageData.self))
        let row = Self.pages.row(for: SiteFixture.posts[0], root: "../")
        #expect(Set(row.keys) == TemplateKeys.row)
        #expect(TemplateKeys.row.count == 23)
    }

    @Test("an inlined value's keys are its holder's own, and its field's name is no key")
    func inlinedValues() {
        let top = TemplateDataKeys.topLevel(of: PostPageData.self)
        #expect(top.contains("postId") && top.contains("isNew") && top.contains("bodyHTML"))
        #expect(!top.contains("post"))
        // Keys of nested values (the parent link, the reply rows) are not the page's own.
        #expect(!top.contains("href"))
        #expect(TemplateDataKeys.of(PostPageData.self).contains("href"))
        #expect(!TemplateDataKeys.of(RowData.self).contains("post"))
    }

    @Test("a nil value is false, never a missing key; lists and objects have the types the stencils read")
    func contextTypes() throws {
        let empty = BoardSummary(board: SiteFixture.boards[2], postCount: 0, newestPostDate: nil, hasPostFromToday: false)
        let home = Self.pages.home([empty])
        let boards = try #require(home["boards"] as? [[String: Any]])
        #expect(type(of: home["boards"]!) == [[String: Any]].self)
        #expect(boards[0]["latest"] as? Bool == false)
        let post = Self.fullPostPage()
        #expect(type(of: post["parent"]!) == [String: Any].self)
        #expect(type(of: post["postId"]!) == Int.self)
        #expect(type(of: post["isNew"]!) == Bool.self)
        let common = try TemplateRenderer.load(
            from: SiteFixture.templatesDirectory, strings: TemplateKeysTests.strings, clock: TemplateKeysTests.clock
        ).commonContext(relativeRoot: "", title: "t")
        #expect(type(of: common["s"]!) == [String: String].self)
        #expect(common["boardFeed"] as? Bool == false)
    }

    @Test("a type's new field is a key the templates may read")
    func newFieldIsAKey() {
        struct Extended: TemplateData {
            var row: RowData
            var pinnedLabel: String
        }
        #expect(TemplateDataKeys.of(Extended.self) == TemplateKeys.row.union(["pinnedLabel"]))
        #expect(!TemplateKeys.all.contains("pinnedLabel"))
    }
}
