import BoardArchive
import Foundation
import GRDB
import Logging
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The incremental build against a clean full build: after any sequence of changes the two sites are identical,
/// file by file; and a rebuild renders only what the change touches.
@Suite("Incremental builds")
struct IncrementalBuildTests {
    typealias SeededRandom = SearchTestCorpus.Random

    /// A change to the archive or to the build's inputs.
    enum Change: CaseIterable {
        case newPost, editPost, removePost, becomeNotice, newBoard, removeBoard, renameBoard, editTemplate, switchLanguage, nextDay
        case toggleBaseURL, toggleNoindex, nothing
        case redactPost, redactWriter, anonymizeWriter, purgePost, redactBoard, undoRedaction, togglePseudonyms
        case goneAtSource, backAtSource, toggleDeletedPosts, boardGoneAtSource
    }

    /// The inputs of one build besides the store.
    struct Inputs {
        var now = SiteFixture.now
        var language = SiteLanguage.ko
        var templates = SiteFixture.templatesDirectory
        var baseURL: URL?
        var noindex = false
        var pseudonymKey: Data?
        var deletedPosts = DeletedPosts.marked
        var keywords = ["서울", "글 1"]
    }

    static func configuration(_ inputs: Inputs, output: URL) -> BuildConfiguration {
        var configuration = BuildConfiguration(
            outputDirectory: output, templatesDirectory: inputs.templates, now: inputs.now, timeZone: SiteFixture.seoul,
            language: inputs.language, keywords: inputs.keywords, topKeywords: 3)
        // Small blocks, so that changes land in some blocks and leave others.
        configuration.searchIndex = SearchIndexConfiguration(blockSize: 8)
        configuration.baseURL = inputs.baseURL
        configuration.noindex = inputs.noindex
        configuration.deletedPosts = inputs.deletedPosts
        configuration.pseudonymKey = inputs.pseudonymKey
        // Random removals may take most posts away; the shrink guard has tests of its own.
        configuration.allowShrink = true
        return configuration
    }

    @discardableResult
    static func build(_ store: ArchiveStore, _ inputs: Inputs, into output: URL) async throws -> BuildReport {
        try await SiteBuilder(configuration: configuration(inputs, output: output), store: store, logger: Logger(label: "test")).build()
    }

    /// The paths whose bytes differ between `output` and a clean full build of `store` made beside it.
    static func differencesFromCleanBuild(_ output: URL, store: ArchiveStore, inputs: Inputs = Inputs()) async throws -> [String] {
        let full = output.deletingLastPathComponent().appendingPathComponent("clean-\(UUID().uuidString)")
        try await build(store, inputs, into: full)
        let (rebuilt, clean) = (try SiteFixture.filesWithState(under: output), try SiteFixture.filesWithState(under: full))
        return Set(rebuilt.keys).union(clean.keys).filter { rebuilt[$0] != clean[$0] }.sorted()
    }

    /// Applies a random `change`; returns a description for failure messages.
    static func apply(_ change: Change, to store: ArchiveStore, inputs: inout Inputs, random: inout SeededRandom, root: URL, step: Int) throws
        -> String
    {
        let ids = try store.read { db in try Int.fetchAll(db, sql: "SELECT postId FROM post ORDER BY postId") }
        let boardIds = try store.boards().map(\.boardId)
        func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))] }
        switch change {
        case .newPost:
            let id = (ids.max() ?? 0) + 1
            let board = pick(boardIds) ?? 1
            let minutes = Int(random.next() % 600)
            var post = SiteFixture.post(
                id, board: board, title: "새 글 \(id) 서울", at: ArchiveDate.format(inputs.now.addingTimeInterval(TimeInterval(-minutes * 60))),
                contents: "본문 \(id) 서울은 맑음")
            if random.next() % 4 == 0, let parent = pick(ids) { post.parentPostId = parent }
            try store.record(posts: [post], at: inputs.now)
            return "new post \(id) on board \(board)"
        case .editPost:
            guard let id = pick(ids), var post = try store.post(id: id) else { return "no post to edit" }
            // Half the edits add words, half replace the text: a patched search block must drop the old words too.
            if random.next() % 2 == 0 {
                post.title += " (고침)"
                post.contents += "\n\n고친 본문 글 1"
            } else {
                post.title = "다시 쓴 제목 \(step)"
                post.contents = "새 본문 \(step): 서울 zebra"
            }
            try store.record(posts: [post], at: inputs.now)
            return "edit post \(id)"
        case .removePost:
            guard let id = pick(ids) else { return "no post to remove" }
            try store.write { db in try db.execute(sql: "DELETE FROM post WHERE postId = ?", arguments: [id]) }
            return "remove post \(id)"
        case .becomeNotice:
            guard let id = pick(ids), var post = try store.post(id: id) else { return "no post" }
            post.postType = .notice
            try store.record(posts: [post], at: inputs.now)
            return "post \(id) becomes a notice"
        case .newBoard:
            let id = (boardIds.max() ?? 0) + 1
            try store.record(boards: [Board(boardId: id, displayName: "새 게시판 \(id)", orderNo: id)], at: inputs.now)
            return "new board \(id)"
        case .removeBoard:
            guard let id = pick(boardIds) else { return "no board" }
            try store.write { db in
                try db.execute(sql: "DELETE FROM post WHERE boardId = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM board WHERE boardId = ?", arguments: [id])
            }
            return "remove board \(id)"
        case .renameBoard:
            guard let id = pick(boardIds), var board = try store.boards().first(where: { $0.boardId == id }) else { return "no board" }
            board.displayName += " 새이름"
            try store.record(boards: [board], at: inputs.now)
            return "rename board \(id)"
        case .editTemplate:
            let templates = root.appendingPathComponent("templates-\(step)")
            try FileManager.default.copyItem(at: inputs.templates, to: templates)
            let post = templates.appendingPathComponent("post.mustache")
            try (try String(contentsOf: post, encoding: .utf8) + "<p class=\"edited\">\(step)</p>\n").write(
                to: post, atomically: true, encoding: .utf8)
            inputs.templates = templates
            return "edit the post template"
        case .switchLanguage:
            inputs.language = inputs.language == .ko ? .en : .ko
            return "language \(inputs.language)"
        case .nextDay:
            inputs.now = inputs.now.addingTimeInterval(86_400)
            return "the clock passes midnight"
        case .toggleBaseURL:
            inputs.baseURL = inputs.baseURL == nil ? URL(string: "https://example.org/archive/") : nil
            return "base URL \(inputs.baseURL?.absoluteString ?? "none")"
        case .toggleNoindex:
            inputs.noindex.toggle()
            return "noindex \(inputs.noindex)"
        case .nothing:
            return "nothing"
        case .redactPost, .purgePost:
            guard let id = pick(try store.postIDs()) else { return "no post to redact" }
            let purge = change == .purgePost
            try store.redact(RedactionRequest(target: .post(id), purge: purge, reason: "step \(step)"), at: inputs.now)
            return "redact post \(id)\(purge ? " with purge" : "")"
        case .redactWriter, .anonymizeWriter:
            let writers = try store.read { db in
                try String.fetchAll(db, sql: "SELECT DISTINCT writerName FROM post WHERE writerName <> '' ORDER BY 1")
            }
            guard let name = pick(writers) else { return "no writer" }
            let mode: RedactionMode = change == .redactWriter ? .remove : .anonymize
            try store.redact(RedactionRequest(target: .writer(name), mode: mode, reason: "step \(step)"), at: inputs.now)
            return "\(mode) writer \(name)"
        case .redactBoard:
            guard let id = pick(Array(Set(try store.postCountsByBoard().keys)).sorted()) else { return "no board with posts" }
            try store.redact(RedactionRequest(target: .board(id), reason: "step \(step)"), at: inputs.now)
            return "redact board \(id)"
        case .goneAtSource:
            // The source deletes a post: the crawl marks it gone (its last sighting stays as it was).
            guard let id = pick(ids) else { return "no post" }
            try store.write { db in
                try db.execute(sql: "UPDATE post SET goneSince = ? WHERE postId = ?", arguments: [inputs.now.timeIntervalSince1970, id])
            }
            return "post \(id) deleted at the source"
        case .backAtSource:
            let gone = try store.read { db in try Int.fetchAll(db, sql: "SELECT postId FROM post WHERE goneSince IS NOT NULL ORDER BY postId") }
            guard let id = pick(gone), let post = try store.post(id: id) else { return "no gone post" }
            try store.record(posts: [post], at: inputs.now)
            return "post \(id) back at the source"
        case .boardGoneAtSource:
            guard let id = pick(boardIds) else { return "no board" }
            try store.write { db in
                try db.execute(sql: "UPDATE board SET goneSince = ? WHERE boardId = ?", arguments: [inputs.now.timeIntervalSince1970, id])
            }
            return "board \(id) deleted at the source"
        case .toggleDeletedPosts:
            let all = DeletedPosts.allCases
            inputs.deletedPosts = all[((all.firstIndex(of: inputs.deletedPosts) ?? 0) + 1) % all.count]
            return "deleted posts \(inputs.deletedPosts.rawValue)"
        case .togglePseudonyms:
            inputs.pseudonymKey = inputs.pseudonymKey == nil ? Data("property-test-key-\(step)-0123456789".utf8) : nil
            return inputs.pseudonymKey == nil ? "real names" : "pseudonyms"
        case .undoRedaction:
            guard let redaction = pick(try store.redactions().filter { $0.undoneAt == nil }) else { return "no redaction to undo" }
            try store.undoRedaction(redaction.id, at: inputs.now)
            return "undo redaction \(redaction.id)"
        }
    }

    @Test("random sequences of changes: the incremental site equals a clean full build, file by file", arguments: [1, 2, 3] as [UInt64])
    func incrementalEqualsFull(seed: UInt64) async throws {
        try await Self.expectIncrementalEqualsFull(seed: seed, steps: 10) { random in
            Change.allCases[Int(random.next() % UInt64(Change.allCases.count))]
        }
    }

    @Test(
        "edits with history and deletions at the source: the incremental site equals a clean full build after each step",
        arguments: [6, 7] as [UInt64])
    func historyEqualsFull(seed: UInt64) async throws {
        // Edits keep versions (version pages appear), deletions mark posts, the policy switches, takedowns reach history.
        let steps: [Change] = [
            .editPost, .editPost, .goneAtSource, .nextDay, .editPost, .goneAtSource, .toggleDeletedPosts, .backAtSource, .toggleDeletedPosts,
            .boardGoneAtSource,
            .goneAtSource, .anonymizeWriter, .redactPost, .toggleDeletedPosts, .purgePost, .undoRedaction, .editPost, .switchLanguage,
        ]
        var index = 0
        try await Self.expectIncrementalEqualsFull(seed: seed, steps: steps.count) { _ in
            defer { index += 1 }
            return steps[index]
        }
    }

    @Test("takedowns and their undoing: the incremental site equals a clean full build after each step", arguments: [4, 5] as [UInt64])
    func redactionsEqualFull(seed: UInt64) async throws {
        let steps: [Change] = [
            .redactPost, .anonymizeWriter, .togglePseudonyms, .purgePost, .undoRedaction, .newPost, .togglePseudonyms, .redactWriter, .undoRedaction,
            .redactBoard, .undoRedaction, .undoRedaction,
        ]
        var index = 0
        try await Self.expectIncrementalEqualsFull(seed: seed, steps: steps.count) { _ in
            defer { index += 1 }
            return steps[index]
        }
    }

    /// Applies `steps` changes chosen by `next`, building incrementally after each and comparing with a clean full build.
    static func expectIncrementalEqualsFull(seed: UInt64, steps: Int, next: (inout SeededRandom) -> Change) async throws {
        var random = SeededRandom(state: seed)
        let root = try SiteFixture.temporaryDirectory("incremental-\(seed)")
        let store = try SiteFixture.store()
        var inputs = Inputs()
        let incremental = root.appendingPathComponent("site")
        try await Self.build(store, inputs, into: incremental)
        var history: [String] = []
        for step in 0..<steps {
            let change = next(&random)
            history.append(try Self.apply(change, to: store, inputs: &inputs, random: &random, root: root, step: step))
            try await Self.build(store, inputs, into: incremental)
            let full = root.appendingPathComponent("full-\(step)")
            try await Self.build(store, inputs, into: full)
            let incrementalFiles = try SiteFixture.files(under: incremental)
            let fullFiles = try SiteFixture.files(under: full)
            let differing = Set(incrementalFiles.keys).union(fullFiles.keys).filter { incrementalFiles[$0] != fullFiles[$0] }.sorted()
            #expect(differing.isEmpty, "seed \(seed) after \(history): \(differing.prefix(8))")
            if !differing.isEmpty { return }
            try FileManager.default.removeItem(at: full)
        }
    }

    @Test("a keyword new to a rebuild: the kept search blocks find it in their files, and the site equals a clean build")
    func aNewKeywordIsFoundInTheKeptBlocks() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        var inputs = Inputs()
        try await Self.build(store, inputs, into: output)
        let index = { try PublishTests.stamps(under: output).filter { $0.key.hasPrefix("search/") && $0.key != "search/manifest.js" } }
        let before = try index()
        inputs.keywords.append("글 2")
        try await Self.build(store, inputs, into: output)
        // No block was encoded again: the new keyword's matches came from the kept blocks' index files.
        #expect(try index() == before)
        let page = try String(contentsOf: output.appendingPathComponent("keywords/\(KeywordSelector.slug(for: "글 2")).html"), encoding: .utf8)
        #expect(page.contains("<mark>"))
        #expect(try await Self.differencesFromCleanBuild(output, store: store, inputs: inputs).isEmpty)
    }

    @Test("a rebuild with nothing changed renders, writes and removes nothing, and leaves every file as it was")
    func nothingChanged() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        let first = try await Self.build(store, Inputs(), into: output)
        #expect(first.rendered == first.total)
        let before = try PublishTests.stamps(under: output)
        let report = try await Self.build(store, Inputs(), into: output)
        #expect(report.rendered == 0)
        #expect(report.written == 0)
        #expect(report.removed == 0)
        #expect(report.unchanged == first.total)
        #expect(try PublishTests.stamps(under: output) == before)
    }

    @Test("with nothing changed, pages are kept without being rendered or read: a page edited by hand stays as it is")
    func nothingChangedKeepsPagesUnread() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        try await Self.build(store, Inputs(), into: output)
        let page = output.appendingPathComponent("posts/101.html")
        try Data("edited by hand".utf8).write(to: page)
        let unchanged = try await Self.build(store, Inputs(), into: output)
        #expect(unchanged.boardsRead == 0, "no board's listing is read")
        #expect(try String(contentsOf: page, encoding: .utf8) == "edited by hand")
        // Any change to the posts brings the board phase back, and the page is made again.
        var post = try #require(try store.post(id: 150))
        post.title += " (고침)"
        try store.record(posts: [post], at: SiteFixture.now)
        let changed = try await Self.build(store, Inputs(), into: output)
        #expect(changed.boardsRead == 3)
        #expect(try String(contentsOf: page, encoding: .utf8) == "edited by hand", "101's digest did not change: kept")
        #expect(try SiteFixture.text("posts/150.html", in: output).contains("(고침)"))
    }

    @Test("an edited post's search block is patched from the previous build's files, to the bytes of a clean build")
    func editedPostPatchesItsBlock() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        try await Self.build(store, Inputs(), into: output)
        var post = try #require(try store.post(id: 150))
        post.title = "고친 제목 quokka"
        post.contents = "새 본문 zebra \"인용\" \\ 'x'\n\n| 서울 | b |\n|---|---|\n| 1 | 2 |\n\u{2028}끝"
        try store.record(posts: [post], at: SiteFixture.now)
        let report = try await Self.build(store, Inputs(), into: output)
        #expect(report.searchBlocksPatched == 1)
        #expect(try await Self.differencesFromCleanBuild(output, store: store) == [])
    }

    @Test("a block whose previous files do not match its record is encoded whole, to the bytes of a clean build")
    func unreadablePreviousFilesFallBackToFullEncoding() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        try await Self.build(store, Inputs(), into: output)
        // The head of post 150 (its record and first contents piece, which patching reads), edited by hand: its record
        // names another post.
        let files = try SiteFixture.files(under: output)
        let head = try #require(
            files.first { $0.key.hasPrefix("search/") && $0.key.contains("/c") && String(decoding: $0.value, as: UTF8.self).contains("[[150,") })
        let tampered = String(decoding: head.value, as: UTF8.self).replacingOccurrences(of: "[[150,", with: "[[151,")
        try Data(tampered.utf8).write(to: output.appendingPathComponent(head.key))
        var post = try #require(try store.post(id: 150))
        post.title = "고친 제목"
        try store.record(posts: [post], at: SiteFixture.now)
        let report = try await Self.build(store, Inputs(), into: output)
        #expect(report.searchBlocksPatched == 0)
        #expect(try await Self.differencesFromCleanBuild(output, store: store) == [])
    }

    @Test("a patched block rewrites the metadata and contents files of the edited post's group only")
    func patchedBlockKeepsOtherGroups() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        func configuration(_ output: URL) -> BuildConfiguration {
            var configuration = Self.configuration(Inputs(), output: output)
            configuration.searchIndex = SearchIndexConfiguration(blockSize: 64, metaShardSize: 4)
            return configuration
        }
        let output = root.appendingPathComponent("site")
        try await SiteBuilder(configuration: configuration(output), store: store, logger: Logger(label: "test")).build()
        let before = try PublishTests.stamps(under: output)
        var post = try #require(try store.post(id: 150))
        post.contents = "전혀 다른 본문, much longer than before: " + String(repeating: "서울 zebra ", count: 200)
        try store.record(posts: [post], at: SiteFixture.now)
        let report = try await SiteBuilder(configuration: configuration(output), store: store, logger: Logger(label: "test")).build()
        #expect(report.searchBlocksPatched == 1)
        let after = try PublishTests.stamps(under: output)
        let groupFile = #/search/([nt]\d+)/(m(\d+)|c(\d+)-\d+)\.js/#
        var changedGroups = Set<String>()
        var keptInPatchedBlock = 0
        for (path, stamp) in after {
            guard let match = try groupFile.wholeMatch(in: path) else { continue }
            let group = "\(match.1)/\(match.3 ?? match.4 ?? "")"
            if before[path] != stamp { changedGroups.insert(group) }
        }
        #expect(changedGroups.count == 1, "\(changedGroups.sorted())")
        let block = changedGroups.first.map { String($0.prefix { $0 != "/" }) } ?? ""
        for (path, stamp) in after where path.hasPrefix("search/\(block)/") && !path.contains("/p") && before[path] == stamp {
            keptInPatchedBlock += 1
        }
        #expect(keptInPatchedBlock > 0)
        let full = root.appendingPathComponent("full")
        try await SiteBuilder(configuration: configuration(full), store: store, logger: Logger(label: "test")).build()
        let (patched, encoded) = (try SiteFixture.files(under: output), try SiteFixture.files(under: full))
        #expect(Set(patched.keys) == Set(encoded.keys))
        #expect(patched.keys.filter { patched[$0] != encoded[$0] }.sorted() == [])
    }

    @Test("a build after one killed past its commit point reads the manifest the recovered files belong to")
    func buildAfterCrashedPublish() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        try await Self.build(store, Inputs(), into: output)
        let original = try #require(try store.post(id: 150))
        // The second build, made elsewhere, then left as a killed process leaves it: committed (its journal in its
        // staging folder beside the site), not applied.
        var edited = original
        edited.title = "두 번째 빌드의 제목"
        try store.record(posts: [edited], at: SiteFixture.now)
        let second = root.appendingPathComponent("second")
        try FileManager.default.copyItem(at: output, to: second)
        try await Self.build(store, Inputs(), into: second)
        let (before, after) = (try SiteFixture.filesWithState(under: output), try SiteFixture.filesWithState(under: second))
        let staging = root.appendingPathComponent(".site.staging-99999999-crashed")
        var journal: [String] = []
        for (path, data) in after.sorted(by: { $0.key < $1.key }) where before[path] != data {
            let target = staging.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target)
            journal.append("M " + path)
        }
        journal += before.keys.filter { after[$0] == nil }.sorted().map { "D " + $0 }
        #expect(journal.contains("M posts/150.html") && journal.contains("M " + SiteManifest.path))
        try Data((journal.joined(separator: "\n") + "\n").utf8).write(to: staging.appendingPathComponent(SitePublisher.journalName))
        // The post goes back to what the first build showed; the next build finishes the second, then rebuilds.
        try store.record(posts: [original], at: SiteFixture.now)
        try await Self.build(store, Inputs(), into: output)
        #expect(!FileManager.default.fileExists(atPath: staging.path))
        #expect(try await Self.differencesFromCleanBuild(output, store: store) == [])
    }

    @Test("one new post rewrites exactly the documented files: its page, its neighbours', the front, boundary and home pages, two feeds")
    func oneNewPost() async throws {
        let root = try SiteFixture.temporaryDirectory()
        // Board 1: notices 120, 140, 160 and 58 others (101…161), so its front page shows 27 of them.
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        try await Self.build(store, Inputs(), into: output)
        let before = try SiteFixture.files(under: output)
        let newest = try #require(try store.posts(inBoard: 1).first { $0.postType != .notice })
        let lastNotice = try #require(try store.posts(inBoard: 1).last { $0.postType == .notice })
        let regular = try store.posts(inBoard: 1).filter { $0.postType != .notice }
        let listing = ListingPages(pinnedCount: 3, itemCount: regular.count)
        // The post the front page drops: the oldest it showed.
        let dropped = regular[listing.frontCount - 1]
        try store.record(
            posts: [SiteFixture.post(900, board: 1, title: "새 글", at: ArchiveDate.format(SiteFixture.now.addingTimeInterval(-60)))],
            at: SiteFixture.now)
        let report = try await Self.build(store, Inputs(), into: output)
        let after = try SiteFixture.files(under: output)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        let pages = changed.filter { !$0.hasPrefix("search/") && !$0.hasPrefix("keywords/") && !$0.hasPrefix(".boardarchive") }
        let after1 = ListingPages(pinnedCount: 3, itemCount: regular.count + 1)
        let boundary = try #require(after1.archivePage(ofItemWithOlderCount: regular.count - listing.frontCount))
        #expect(
            pages.sorted()
                == [
                    "boards/1/index.html", SitePaths.board(1, archivePage: boundary), "index.html", "posts/900.html", SitePaths.post(newest.postId),
                    SitePaths.post(lastNotice.postId), SitePaths.post(dropped.postId), SitePaths.boardFeed(1), SitePaths.archiveFeed,
                ].sorted())
        // Every rendered file was counted, and the search index changed only in its newest block of others.
        #expect(report.written <= report.rendered)
        let blocks = Set(
            changed.filter { $0.hasPrefix("search/") && $0.contains("/") && $0.split(separator: "/").count == 3 }.map { $0.split(separator: "/")[1] })
        #expect(blocks.count <= 1, "\(blocks)")
    }
}
