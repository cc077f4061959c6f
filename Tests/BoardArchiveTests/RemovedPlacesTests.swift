import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Removed posts keep their places in keyword lists: matched with the index's own matcher, merged in search order.
@Suite struct RemovedPlacesTests {
    static let keyword = SearchKeyword(text: "서울", slug: KeywordSelector.slug(for: "서울"))

    static func document(_ id: Int, _ title: String, contents: String = "", minutes: Int, notice: Bool = false) -> SearchDocument {
        SearchDocument(
            postId: id, boardId: 1, boardName: "자유게시판", title: title, writer: "김민준", contents: contents,
            createdDateTime: SiteFixture.now.addingTimeInterval(TimeInterval(minutes * 60)), postType: notice ? .notice : .normal)
    }

    @Test("a removed post keeps a place only in the keywords its text matches, as the index's matcher finds them")
    func placesFollowTheMatcher() throws {
        let documents = [
            Self.document(1, "서울시청 앞", minutes: 1),
            Self.document(2, "부산", contents: "본문에만 서울이", minutes: 2),
            Self.document(3, "관계없는 글", contents: "부산", minutes: 3),
            Self.document(4, "공지: 서울 행사", minutes: 0, notice: true),
            Self.document(5, "", minutes: 4),
        ]
        let busan = SearchKeyword(text: "부산", slug: KeywordSelector.slug(for: "부산"))
        let places = RemovedPlaces(documents: documents, keywords: [Self.keyword, busan])
        // Search order: the notice first, then newest first.
        #expect(places.bySlug[Self.keyword.slug]?.map(\.postId) == [4, 2, 1])
        #expect(places.bySlug[Self.keyword.slug]?.map(\.isNotice) == [true, false, false])
        #expect(places.bySlug[busan.slug]?.map(\.postId) == [3, 2])
        // What the index itself finds for the same documents.
        let reader = try SearchIndexReader(files: try SearchIndexBuilder().makeSearchIndex(for: documents))
        let found = try reader.search("서울", target: .all, boardId: nil, limit: 10).hits.map { try reader.postId(of: $0) }
        #expect(found == [4, 2, 1])
        // A purged post has no text left: it keeps no place.
        #expect(RemovedPlaces(documents: [Self.document(5, "", minutes: 4)], keywords: [Self.keyword]).bySlug.isEmpty)
    }

    @Test("a keyword list merges the removed places in search order and counts them apart")
    func mergedInSearchOrder() {
        func block(_ id: String, _ posts: [(id: Int, created: Int)]) -> SearchPhase.Block {
            let record = SearchBlockRecord(
                id: id, postingBuckets: 1, files: [], postIds: posts.map(\.id), created: posts.map(\.created), hashes: posts.map { UInt64($0.id) },
                boards: posts.map { _ in 1 }, matches: [Self.keyword.slug: Array(posts.indices)])
            return SearchPhase.Block(id: id, digest: BuildDigest(), record: record, kept: false)
        }
        let blocks = [block("t0", [(10, 100)]), block("n0", [(1, 1), (2, 2), (4, 4)])]
        let removed = [
            RemovedPlaces.Place(postId: 11, boardId: 1, created: 50, isNotice: true),
            RemovedPlaces.Place(postId: 5, boardId: 1, created: 5, isNotice: false),
            RemovedPlaces.Place(postId: 3, boardId: 1, created: 3, isNotice: false),
            RemovedPlaces.Place(postId: 0, boardId: 1, created: 0, isNotice: false),
        ]
        let results = KeywordResults(keyword: Self.keyword, blocks: blocks, removedPlaces: removed)
        #expect(results.postIds == [10, 11, 5, 4, 3, 2, 1, 0])
        #expect(results.removed == [false, true, true, false, true, false, false, true])
        #expect(results.pinned == 2)
        #expect(results.removedCount == 4)
        #expect(results.shownCount == 4)
        let plain = KeywordResults(keyword: Self.keyword, blocks: blocks)
        #expect(plain.postIds == [10, 4, 2, 1])
        #expect(plain.removed.allSatisfy { !$0 })
    }
}
