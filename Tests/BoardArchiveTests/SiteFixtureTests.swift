import BoardArchive
import Foundation
import Logging
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Inline archives, folders and build helpers shared by the site tests.
enum SiteFixture {
    /// The repository's default templates (`templates/` at the package root).
    static let templatesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("templates", isDirectory: true)

    /// The fixed clock of the inline archive: 2024-05-15 12:00 in Seoul (03:00 UTC).
    static let now = date("2024-05-15T03:00:00Z")
    static let seoul = TimeZone(identifier: "Asia/Seoul") ?? .current

    static func date(_ text: String) -> Date {
        ArchiveDate.parse(text) ?? Date(timeIntervalSince1970: 0)
    }

    /// A fresh empty folder under the system's temporary folder.
    static func temporaryDirectory(_ name: String = #function) throws -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("boardarchive-\(safe)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A post with the inline archive's defaults.
    static func post(
        _ id: Int, board: Int = 1, title: String? = nil, at time: String, type: PostType = .normal, writer: String = "홍길동",
        contents: String = "본문", anonymous: Bool = false, views: Int = 0, comments: Int = 0, attachments: Int = 0, parent: Int? = nil
    ) -> Post {
        Post(
            postId: id, title: title ?? "글 \(id)", boardId: board, writer: Writer(displayName: writer), contents: contents,
            createdDateTime: date(time), viewCount: views, postType: type, commentsCount: comments, attachmentsCount: attachments,
            isAnonymous: anonymous, parentPostId: parent)
    }

    /// Boards of the inline archive: 1 (61 posts: 3 pages), 2 (empty), 3 (a few posts, incl. a table and a reply).
    static let boards: [Board] = [
        Board(boardId: 3, displayName: "질문 & 답변", orderNo: 2),
        Board(boardId: 1, displayName: "자유게시판", orderNo: 1),
        Board(boardId: 2, displayName: "빈 게시판 <empty>", orderNo: 3),
    ]

    /// The inline archive's posts; deterministic, with notices, replies, anonymous writers and attachments.
    static var posts: [Post] {
        var posts: [Post] = []
        for index in 1...61 {
            // One post every 6 hours backwards from 2024-05-15 11:00 UTC (20:00 Seoul).
            let time = ArchiveDate.format(date("2024-05-15T02:00:00Z").addingTimeInterval(Double(-(index - 1)) * 6 * 3_600))
            posts.append(
                post(
                    100 + index, at: time, type: index % 20 == 0 ? .notice : .normal, anonymous: index % 7 == 0, views: index * 3,
                    comments: index % 5, attachments: index % 4 == 0 ? 1 : 0))
        }
        posts.append(
            post(
                301, board: 3, title: "표가 있는 글", at: "2024-05-14T23:30:00Z",
                contents: "| 이름 | 값 |\n|---|---:|\n| 사과 | 3 |\n| 배 | ~~5~~ 4 |\n\n- [x] 완료\n- [ ] 할 일\n\n줄 하나\n줄 둘",
                views: 12, comments: 2))
        posts.append(post(302, board: 3, title: "Re: 표가 있는 글", at: "2024-05-15T01:00:00Z", type: .reply, contents: "답글입니다.", parent: 301))
        posts.append(post(303, board: 3, title: "원글이 없는 답글", at: "2024-05-10T01:00:00Z", type: .reply, parent: 9_999))
        posts.append(post(304, board: 3, title: "공지: 질문 전에 읽어 주세요", at: "2024-04-01T00:00:00Z", type: .notice, writer: "운영자"))
        return posts
    }

    /// A store holding `boards` and `posts`.
    static func store(boards: [Board] = SiteFixture.boards, posts: [Post] = SiteFixture.posts) throws -> ArchiveStore {
        let store = try ArchiveStore.inMemory()
        try store.record(boards: boards, at: now)
        try store.record(posts: posts, at: now)
        return store
    }

    /// Builds `store` into `output` with the default templates (unless given) and the fixed clock.
    @discardableResult
    static func build(
        _ store: ArchiveStore, into output: URL, templates: URL = SiteFixture.templatesDirectory, now: Date = SiteFixture.now,
        timeZone: TimeZone = SiteFixture.seoul, language: SiteLanguage = .ko, force: Bool = false
    ) async throws -> BuildReport {
        let configuration = BuildConfiguration(
            outputDirectory: output, templatesDirectory: templates, now: now, timeZone: timeZone, language: language, force: force)
        return try await SiteBuilder(
            configuration: configuration, store: store, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        ).build()
    }

    /// Every file under `root` by relative path (sorted keys when iterated through `.sorted`).
    static func files(under root: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in SitePublisher.files(under: root) {
            result[path] = try Data(contentsOf: root.appendingPathComponent(path))
        }
        return result
    }

    /// ``files(under:)`` of a site and, by their logical paths (``BuildState/prefix``), of its state folder beside it.
    static func filesWithState(under root: URL) throws -> [String: Data] {
        var result = try files(under: root)
        // The identity file names the site's marker by inode, which differs between any two sites.
        for (path, data) in try files(under: BuildState.defaultDirectory(for: root)) where path != BuildState.identityFile {
            result[BuildState.prefix + path] = data
        }
        return result
    }

    /// The text of one generated file.
    static func text(_ path: String, in root: URL) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}

@Suite("Site fixture")
struct SiteFixtureTests {
    @Test("the inline archive has the boards and posts the site tests assume")
    func inlineArchiveShape() throws {
        let store = try SiteFixture.store()
        #expect(try store.boards().map(\.boardId) == [1, 3, 2])
        #expect(try store.postCount(inBoard: 1) == 61)
        #expect(try store.postCount(inBoard: 2) == 0)
        #expect(try store.posts(inBoard: 3).map(\.postId) == [304, 302, 301, 303])
    }
}
