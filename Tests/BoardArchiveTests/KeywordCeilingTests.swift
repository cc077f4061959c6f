import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The ceiling on top keywords (``BuildConfiguration/topKeywordsMaxShare``): near stop words are passed over.
@Suite struct KeywordCeilingTests {
    static let frequency = ["서버": 50, "서버실": 30, "회의": 40, "notes": 20, "note": 5, "일정": 40]

    @Test func aTermIsPassedOverWhenItAndTheTermsContainingItReachPastTheCeiling() {
        // 서버 reaches 50 + 30 (서버실 lists under 서버) = 80 > 60; note reaches 5 + 20 = 25.
        #expect(KeywordSelector.top(4, of: Self.frequency, ceiling: 60).map(\.term) == ["일정", "회의", "서버실", "notes"])
        #expect(KeywordSelector.top(6, of: Self.frequency, ceiling: 24).map(\.term) == ["notes"])
        #expect(KeywordSelector.top(6, of: Self.frequency, ceiling: 25).map(\.term) == ["notes", "note"])
        #expect(KeywordSelector.top(2, of: Self.frequency).map(\.term) == ["서버", "일정"])
    }

    @Test(arguments: [
        (100_000, 0.1, 300, 10_000 as Int?), (1_000, 0.1, 300, 300), (300, 0.1, 300, nil), (250, 0.1, 300, nil),
        (100_000, 1.0, 300, nil), (100, 0.5, 0, 50), (10_001, 0.1, 300, 1_000), (100_000, .infinity, 300, nil), (100_000, .nan, 300, nil),
    ])
    func theCeilingIsAShareOfTheIndexedPostsWithAFloor(posts: Int, share: Double, floor: Int, expected: Int?) {
        var configuration = BuildConfiguration(now: SiteFixture.now)
        configuration.topKeywordsMaxShare = share
        configuration.topKeywordsPostFloor = floor
        #expect(configuration.topKeywordCeiling(indexedPosts: posts) == expected)
    }

    @Test func aBuildPassesOverTermsInMoreThanTheShareAndKeepsConfiguredKeywords() throws {
        var configuration = BuildConfiguration(now: SiteFixture.now, timeZone: SiteFixture.seoul, keywords: ["반복"], topKeywords: 2)
        let (_, plain) = try SearchPhaseHarness.run(boards: KeywordPageTests.boards, posts: KeywordPageTests.posts, configuration: configuration)
        // 47 posts: under the 300-post floor nothing is passed over, and 키워드 (40 posts) is the most frequent term.
        #expect(plain.keywords.contains("키워드"))
        configuration.topKeywordsPostFloor = 0
        configuration.topKeywordsMaxShare = 0.5
        let (files, capped) = try SearchPhaseHarness.run(boards: KeywordPageTests.boards, posts: KeywordPageTests.posts, configuration: configuration)
        #expect(capped.keywords.first == "반복", "a configured keyword is never held back")
        #expect(!capped.keywords.contains("키워드"), "\(capped.keywords)")
        #expect(capped.keywords.contains("서울"), "\(capped.keywords)")
        #expect(files["keywords/\(KeywordSelector.slug(for: "키워드")).html"] == nil)
    }
}
