import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// A sample value of a page input, checked field by field.
protocol PageInputSample {
    func unchanged() throws -> (paths: [String], tried: Int)
}

extension PageInputSample where Self: PageInput & Equatable {
    func unchanged() throws -> (paths: [String], tried: Int) { try PageInputTests.unchangedDigests(self) }
}

extension BuildBaseInput: PageInputSample {}
extension TemplateSourcesInput: PageInputSample {}
extension SearchSettingsInput: PageInputSample {}
extension SearchBlocksInput: PageInputSample {}
extension SearchDirectoryInput: PageInputSample {}
extension KeywordSelectionInput: PageInputSample {}
extension KeywordMatchesInput: PageInputSample {}
extension IndexFileInput: PageInputSample {}
extension PagesStateInput: PageInputSample {}
extension SearchBlockInput: PageInputSample {}
extension ArchiveBoardsInput: PageInputSample {}
extension PostStatesInput: PageInputSample {}
extension MediaFileInput: PageInputSample {}
extension PictureStatesInput: PageInputSample {}

/// Every field of every page input is in its file's digest: for each kind, each field of a sample value is changed in
/// turn (found by walking the value's JSON encoding, so a field added to a type is changed here without touching this
/// test), and the digest must change.
@Suite("Page inputs: every field in the digest")
struct PageInputTests {
    static let base = BuildDigest(bytes: "templates strings".utf8)

    /// A JSON value, decoded strictly (a flag is never a number) so that each kind of field changes its own way.
    indirect enum JSON: Codable {
        case flag(Bool), number(Int), text(String), list([JSON]), object([String: JSON]), null

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let flag = try? single.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? single.decode(Int.self) {
                self = .number(number)
            } else if let text = try? single.decode(String.self) {
                self = .text(text)
            } else if let list = try? single.decode([JSON].self) {
                self = .list(list)
            } else {
                self = .object(try single.decode([String: JSON].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            switch self {
            case .flag(let flag): try single.encode(flag)
            case .number(let number): try single.encode(number)
            case .text(let text): try single.encode(text)
            case .list(let list): try single.encode(list)
            case .object(let object): try single.encode(object)
            case .null: try single.encodeNil()
            }
        }
    }

    /// The paths of `sample`'s fields whose change (or removal, or one more or one less item in a list) leaves the digest
    /// as it was, and how many changes made a valid value (removing a required field does not).
    static func unchangedDigests<Input: PageInput & Equatable>(_ sample: Input) throws -> (paths: [String], tried: Int) {
        let original = sample.digest(base: base)
        let json = try JSONDecoder().decode(JSON.self, from: try JSONEncoder().encode(sample))
        var unchanged: [String] = []
        var tried = 0
        for (path, changed) in variants(of: json, path: "") {
            guard let value = try? JSONDecoder().decode(Input.self, from: try JSONEncoder().encode(changed)) else { continue }
            #expect(value != sample, "\(path): the change did not reach the value")
            tried += 1
            if value.digest(base: base) == original { unchanged.append(path) }
        }
        return (unchanged, tried)
    }

    /// Every single change of `json`: each number + 1, each text + "x", each flag flipped, each key removed, each list
    /// one item longer and one shorter; with the path of the change.
    static func variants(of json: JSON, path: String) -> [(String, JSON)] {
        switch json {
        case .object(let object):
            var result: [(String, JSON)] = []
            for (key, value) in object {
                var without = object
                without[key] = nil
                result.append(("\(path).\(key) removed", .object(without)))
                for (inner, changed) in variants(of: value, path: "\(path).\(key)") {
                    var copy = object
                    copy[key] = changed
                    result.append((inner, .object(copy)))
                }
            }
            return result
        case .list(let list):
            var result: [(String, JSON)] = []
            if let first = list.first {
                result.append(("\(path) one more", .list(list + [first])))
                result.append(("\(path) one fewer", .list(Array(list.dropLast()))))
            }
            for (index, value) in list.enumerated() {
                for (inner, changed) in variants(of: value, path: "\(path)[\(index)]") {
                    var copy = list
                    copy[index] = changed
                    result.append((inner, .list(copy)))
                }
            }
            return result
        case .flag(let flag): return [(path, .flag(!flag))]
        case .number(let number): return [(path, .number(number + 1))]
        case .text(let text): return [(path, .text(text + "x"))]
        case .null: return []
        }
    }

    static let row = RowInput(postId: 12, contentHash: "a1b2", isToday: true, goneSeconds: 1_700_000_000)
    static let link = LinkInput(postId: 11, contentHash: "c3d4")
    static let frontPager = PagerInput(page: nil, window: [3, 2, 1], totalCount: 95, shownCount: 95, archivePageCount: 4)
    static let archivePager = PagerInput(page: 2, window: [3, 2, 1], hasNewer: true, hasPosts: true)

    @Test("a post page")
    func postPage() throws {
        let sample = PostPageInput(
            post: Self.row, boardId: 3, boardName: "자유게시판", backPage: 2, previous: Self.link, next: LinkInput(postId: 13, contentHash: "e5"),
            parent: LinkInput(postId: 1, contentHash: "f6"), parentMissing: false, parentRemoved: true,
            replies: [RowInput(postId: 20, contentHash: "aa", isToday: false), Self.row],
            versions: [Self.version, VersionInput(VersionKey(version: 2, contentHash: "v2", firstSeen: Self.day, lastSeen: Self.day))],
            editedSeconds: 1_700_100_000, pictures: [Self.picture, PublishedImage(address: "b.gif", hash: "9a", format: .gif, width: 1, height: 1)])
        let result = try Self.unchangedDigests(sample)
        #expect(result.paths == [])
        #expect(result.tried >= 45)
    }

    static let day = Date(timeIntervalSince1970: 1_700_000_000)
    static let picture = PublishedImage(address: "/media/a.png", hash: "ab12", format: .png, width: 320, height: 200)
    static let version = VersionInput(VersionKey(version: 1, contentHash: "v1", firstSeen: day, lastSeen: day.addingTimeInterval(86_400)))

    @Test("an earlier version's page")
    func versionPage() throws {
        let sample = VersionPageInput(postId: 12, version: Self.version, nextHash: "v2", boardId: 3, boardName: "자유게시판", writerWithheld: true)
        let result = try Self.unchangedDigests(sample)
        #expect(result.paths == [])
        #expect(result.tried >= 9)
    }

    @Test("a board's front and archive pages", arguments: [frontPager, archivePager])
    func listingPage(pager: PagerInput) throws {
        let sample = ListingPageInput(
            boardId: 3, boardName: "자유게시판", pager: pager, rows: [Self.row, RowInput(postId: 9, contentHash: "b", isToday: false)])
        let result = try Self.unchangedDigests(sample)
        #expect(result.paths == [])
        #expect(result.tried >= 15)
    }

    @Test("a tombstone")
    func tombstone() throws {
        let sample = TombstoneInput(postId: 7, boardId: 3, boardName: "자유게시판", backPage: 1, removedDay: "2026-11-27")
        #expect(try Self.unchangedDigests(sample).paths == [])
    }

    @Test("a keyword page, with a row a takedown removed")
    func keywordPage() throws {
        let sample = KeywordPageInput(
            keyword: "서울", pager: Self.archivePager,
            rows: [
                KeywordRowInput(postId: 5, contentHash: 77, boardName: "공지", isToday: false),
                KeywordRowInput.removed(postId: 6),
            ])
        let result = try Self.unchangedDigests(sample)
        #expect(result.paths == [])
        #expect(result.tried >= 15)
    }

    @Test("the home page, its feeds and sitemaps")
    func homeFeedsAndSitemaps() throws {
        let home = HomePageInput(boards: [
            HomeBoardInput(boardId: 1, boardName: "공지", postCount: 3, hasPostFromToday: true, newestPostSeconds: 1_700_000_000, newestIsToday: false),
            HomeBoardInput(boardId: 2, boardName: "자유", postCount: 0, hasPostFromToday: false, newestPostSeconds: 1, newestIsToday: true),
        ])
        let feed = FeedInput(
            scope: "board-feed", baseURL: "https://example.org/", boards: [BoardNameInput(boardId: 1, name: "공지")],
            posts: [
                FeedEntryInput(postId: 11, contentHash: "c3d4", editedSeconds: 5, pictures: [Self.picture]),
                FeedEntryInput(postId: 12, contentHash: "e5"),
            ])
        let sitemap = SitemapInput(isIndex: false, baseURL: "https://example.org/", entries: ["index.html", "posts/1.html"])
        for result in [try Self.unchangedDigests(home), try Self.unchangedDigests(feed), try Self.unchangedDigests(sitemap)] {
            #expect(result.paths == [])
            #expect(result.tried >= 6)
        }
    }

    @Test("the build's shared inputs, the templates and the search index's own inputs")
    func buildAndSearchInputs() throws {
        let block = BlockDigestInput(id: "n0", digest: "00ff")
        let samples: [any PageInputSample] = [
            BuildBaseInput(
                engineVersion: "pages-6", templates: "abc", language: "ko", timeZone: "Asia/Seoul", offsetMinutes: 540, noindex: false,
                writers: "names", deletedPosts: "marked"),
            TemplateSourcesInput(templates: [TemplateSourceInput(name: "layout", text: "{{{content}}}"), TemplateSourceInput(name: "home", text: "")]
            ),
            SearchSettingsInput(
                indexFormat: "index-3", blockSize: 2048, postingShardTargetBytes: 6000, metaShardSize: 32, contentsShardTargetBytes: 8000,
                directoryShardTargetBytes: 6000, maximumFileBytes: 1 << 20),
            SearchBlocksInput(posts: "1234"),
            SearchDirectoryInput(blocks: [block, BlockDigestInput(id: "t0", digest: "01")]),
            KeywordSelectionInput(topKeywords: 20, ceiling: 300, keywords: ["서울", "회의"], blocks: [block]),
            KeywordMatchesInput(slugs: ["k-1", "k-2"]),
            IndexFileInput(path: "search/n0/p3.js"),
            PagesStateInput(day: 20_000, baseURL: "https://example.org/", posts: "ab"),
            SearchBlockInput(id: "n1", postIds: [1, 2], contentHashes: ["a", "b"], boardNames: ["공지", "자유"]),
            ArchiveBoardsInput(boards: [BoardNameInput(boardId: 1, name: "공지"), BoardNameInput(boardId: 2, name: "자유")]),
            MediaFileInput(hash: "ab12", format: .webp),
            PictureStatesInput(postIds: [1, 2], hashes: ["ab", "cd"]),
            PostStatesInput(
                postIds: [1, 2], boardIds: [3, 4], contentHashes: ["a", "b"], redactionModes: ["", "remove"], redactedAt: [nil, 5],
                goneSince: [7, nil],
                versionCounts: [0, 2]),
        ]
        for sample in samples {
            let result = try sample.unchanged()
            #expect(result.paths == [], "\(type(of: sample))")
            #expect(result.tried >= 1, "\(type(of: sample))")
        }
    }

    @Test("kinds differ even when their values encode alike, and the base is part of every digest")
    func kindsAndBase() {
        let tombstone = TombstoneInput(postId: 7, boardId: 3, boardName: "b", backPage: nil, removedDay: "d")
        #expect(tombstone.digest(base: Self.base) != tombstone.digest(base: BuildDigest(bytes: "other templates".utf8)))
        #expect(
            ListingPageInput(boardId: 1, boardName: "", pager: PagerInput(page: nil, window: []), rows: []).digest(base: Self.base)
                != KeywordPageInput(keyword: "", pager: PagerInput(page: nil, window: []), rows: []).digest(base: Self.base))
    }

    /// Lists of the plain values the encoder feeds at once, and the same values as `ContiguousArray`s, which it encodes
    /// item by item through a container.
    struct Lists: Encodable {
        var ints: [Int] = [3, -1, 0]
        var texts: [String] = ["서울", "", "a b"]
        var flags: [Bool] = [true, false]
        var words: [UInt64] = [UInt64.max, 7]
        var optionals: [Int?] = [nil, 5, nil]
        var nested: [[Int]]? = [[1], []]
    }
    struct ItemByItem: Encodable {
        var ints: ContiguousArray<Int> = [3, -1, 0]
        var texts: ContiguousArray<String> = ["서울", "", "a b"]
        var flags: ContiguousArray<Bool> = [true, false]
        var words: ContiguousArray<UInt64> = [UInt64.max, 7]
        var optionals: ContiguousArray<Int?> = [nil, 5, nil]
        var nested: ContiguousArray<ContiguousArray<Int>>? = [[1], []]
    }

    @Test("a list of plain values fed at once gives the words of its items one by one")
    func listsAtOnceAreItemByItem() {
        #expect(DigestEncoder.digest(of: Lists(), base: Self.base) == DigestEncoder.digest(of: ItemByItem(), base: Self.base))
        var changed = Lists()
        changed.optionals = [nil, 5, 0]
        #expect(DigestEncoder.digest(of: changed, base: Self.base) != DigestEncoder.digest(of: ItemByItem(), base: Self.base))
    }
}
