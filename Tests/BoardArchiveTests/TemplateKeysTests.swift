import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Template keys are declared once: a tag reading an undeclared key fails the build at its file and line, and every
/// context the build makes holds only declared keys.
@Suite("Template keys")
struct TemplateKeysTests {
    static let strings = SiteStrings(language: .ko)
    static let clock = ArchiveClock(now: SiteFixture.now, timeZone: SiteFixture.seoul)

    @Test(
        "a tag reading an unknown key is found with its line",
        arguments: [
            ("<h1>{{titel}}</h1>", "titel", 1), ("a\nb\n{{#postz}}x{{/postz}}", "postz", 3), ("{{{bodyHtml}}}", "bodyHtml", 1),
            ("{{s.nosuchstring}}", "s.nosuchstring", 1), ("{{parent.hreff}}", "parent.hreff", 1), ("{{^hasPost}}{{/hasPost}}", "hasPost", 1),
            ("{{& tilte }}", "tilte", 1),
        ] as [(String, String, Int)])
    func unknownKeys(text: String, name: String, line: Int) throws {
        let found = try #require(TemplateKeys.unknownKey(in: text, strings: Set(Self.strings.table.keys)))
        #expect(found.name == name)
        #expect(found.line == line)
    }

    @Test(
        "declared keys, strings, the current item, comments, partials and closing tags pass",
        arguments: [
            "{{title}} {{{bodyHTML}}} {{s.home}}", "{{#parent}}{{href}}{{/parent}}", "{{#scripts}}{{.}}{{/scripts}}", "{{! a comment }}",
            "{{> partials/pager}}", "{{#pager}}{{#items}}{{label}}{{/items}}{{/pager}}", "{{=<% %>=}}<% anything %>",
        ])
    func knownKeys(text: String) {
        #expect(TemplateKeys.unknownKey(in: text, strings: Set(Self.strings.table.keys)) == nil)
    }

    @Test("a --templates folder with a misspelt key fails to load, naming the key, the file and the line")
    func misspeltKeyFailsTheBuild() throws {
        let templates = try RenderTemplateTests.copyOfDefaultTemplates(in: try SiteFixture.temporaryDirectory())
        let board = templates.appendingPathComponent("board.mustache")
        var text = try String(contentsOf: board, encoding: .utf8)
        text = text.replacingOccurrences(of: "<h1>{{boardName}}</h1>", with: "<h1>{{boardNmae}}</h1>")
        try text.write(to: board, atomically: true, encoding: .utf8)
        do {
            _ = try TemplateRenderer.load(from: templates, strings: Self.strings, clock: Self.clock)
            Issue.record("a misspelt key loaded")
        } catch let error as BuildError {
            #expect(error.reason == .unknownKey("boardNmae"))
            #expect(error.location?.hasSuffix("templates/board.mustache:2") == true)
            #expect(error.errorDescription?.contains("{{boardNmae}}") == true)
        }
    }

    /// Every key of a context, nested dictionaries and arrays of them included (not the strings table `s`, whose
    /// keys are checked against the strings).
    static func keys(of value: Any) -> Set<String> {
        if let dictionary = value as? [String: Any] {
            return dictionary.reduce(into: Set(dictionary.keys)) { keys, entry in
                if entry.key != "s" { keys.formUnion(Self.keys(of: entry.value)) }
            }
        }
        if let array = value as? [Any] { return array.reduce(into: Set<String>()) { $0.formUnion(keys(of: $1)) } }
        return []
    }

    @Test("every context the pages are made from holds only declared keys")
    func contextsHoldDeclaredKeys() throws {
        let pages = PageContext(strings: Self.strings, clock: Self.clock)
        let posts = SiteFixture.posts
        let board = SiteFixture.boards[1]
        let listing = ListingPages(pinnedCount: 0, itemCount: 61)
        let summary = BoardSummary(board: board, postCount: 61, newestPostDate: posts.first?.createdDateTime, hasPostFromToday: true)
        let renderer = try TemplateRenderer.load(from: SiteFixture.templatesDirectory, strings: Self.strings, clock: Self.clock)
        let neighbours = PostNeighbours(
            board: board, backPage: 1, previous: posts[1], next: posts[2], parent: posts[3], parentMissing: false, replies: [posts[4]])
        let writer = KeywordPageWriter(pages: pages, strings: Self.strings, boardNames: [1: "자유게시판"])
        let contexts: [String: [String: Any]] = [
            "common": renderer.commonContext(relativeRoot: "../", title: "t", scripts: ["a.js"]),
            "home": pages.home([
                summary,
                BoardSummary(
                    board: SiteFixture.boards[2], postCount: 0, newestPostDate: nil, hasPostFromToday: false, deletedLastSeen: SiteFixture.now),
            ]),
            "board front": pages.boardPage(board: board, rows: Array(posts.prefix(30)), listing: listing, archivePage: nil),
            "board archive page": pages.boardPage(board: board, rows: Array(posts.prefix(30)), listing: listing, archivePage: 0),
            "post": pages.postPage(posts[0], bodyHTML: "<p>x</p>", neighbours: neighbours),
            "search": SearchPhase.searchPage(boards: SiteFixture.boards, pages: pages, rowTemplate: ""),
            "keyword index": writer.indexContext([("서울", "k-1", 3)]),
            "tombstone": pages.tombstonePage(
                RemovedPost(postId: 150, boardId: 1, isNotice: false, redactedAt: SiteFixture.now), board: board, backPage: 0),
        ]
        for (name, context) in contexts {
            let undeclared = Self.keys(of: context).subtracting(TemplateKeys.all)
            #expect(undeclared.isEmpty, "\(name): \(undeclared.sorted())")
        }
        #expect(TemplateKeys.keywordRow.isSubset(of: TemplateKeys.all))
    }
}
