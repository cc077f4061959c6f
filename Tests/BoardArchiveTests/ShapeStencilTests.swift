import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Pages rendered through their shape's stencil (``ShapeStencils``) and rows pre-rendered for their page
/// (``RowPrerender``) give swift-mustache's bytes, and templates where they might not are left to the engine.
@Suite struct ShapeStencilTests {
    static let clock = ArchiveClock(now: SiteFixture.now, timeZone: SiteFixture.seoul)
    static let pages = PageContext(strings: SiteStrings(language: .ko), clock: clock)
    static let board = Board(boardId: 1, displayName: "자유 <게시판> & \"공지\"", orderNo: 1)

    static func load(_ changes: [String: String] = [:], _ name: String = #function) throws -> TemplateRenderer {
        try TemplateRenderer.load(from: RowStencilTests.templates(changes, name), strings: SiteStrings(language: .ko), clock: clock)
    }

    /// Posts of every combination of the flags a row shows, with titles that need escaping (and a `U+0000`).
    static let posts: [Post] = (0..<64).map { index in
        let bit = { (shift: Int) in index >> shift & 1 == 1 }
        return Post(
            postId: 100 + index, title: bit(5) ? "<b>제목</b> & 'x' \u{0}\(index)" : "제목 \(index)", boardId: 1,
            writer: Writer(displayName: "김 \"민준\""), contents: "본문",
            createdDateTime: SiteFixture.now.addingTimeInterval(bit(0) ? -60 : -86_400 * 3), viewCount: index * 7,
            postType: bit(1) ? .notice : bit(2) ? .reply : .normal, commentsCount: bit(3) ? index : 0, attachmentsCount: bit(4) ? 2 : 0,
            isAnonymous: index % 5 == 0)
    }

    /// The page `template` through stencils (twice: the second time from the cache) and through the engine alone, and
    /// the whole page as ``TemplateRenderer/renderPage(template:context:relativeRoot:title:scripts:)`` renders it from
    /// layers (the page's keys over the head's over the site's) as the engine renders the layers merged.
    @discardableResult
    static func expectSameBytes(_ renderer: TemplateRenderer, _ context: [String: Any], template: String) throws -> String {
        var merged = renderer.commonContext(relativeRoot: "../", title: "제목 <&>")
        merged.merge(context) { _, page in page }
        let engine = try renderer.renderWithEngine(merged, with: template)
        #expect(try renderer.render(merged, with: template) == engine)
        #expect(try renderer.render(merged, with: template) == engine)
        merged["content"] = engine
        let layout = try renderer.renderWithEngine(merged, with: "layout")
        #expect(try renderer.render(merged, with: "layout") == layout)
        for _ in 0..<2 {
            #expect(try renderer.renderPage(template: template, context: context, relativeRoot: "../", title: "제목 <&>") == layout)
        }
        return layout
    }

    @Test func layersReadEachNameFromTheFirstLayerThatHoldsIt() throws {
        let renderer = try Self.load(["keyword-row": "[{{root}}|{{lang}}|{{title}}|{{#noindex}}n{{/noindex}}{{^noindex}}-{{/noindex}}]\n"])
        let layers: [[String: Any]] = [
            ["title": "첫 <1>"], ["title": "둘", "root": "../", "noindex": true], ["lang": "ko", "root": "", "noindex": false],
        ]
        let merged = ContextLayers(layers).merged
        #expect(merged["title"] as? String == "첫 <1>" && merged["root"] as? String == "../" && merged["noindex"] as? Bool == true)
        let engine = try renderer.renderWithEngine(merged, with: "keyword-row")
        #expect(engine == "[../|ko|첫 &lt;1&gt;|n]\n")
        // The stencil's first page (the engine given the layers merged) and a later one (the layers read as they are).
        for _ in 0..<2 { #expect(try renderer.render(ContextLayers(layers), with: "keyword-row") == engine) }
        // Of the same shape: filled from the stencil, each name from its first layer.
        let later = ContextLayers([["title": "셋", "noindex": true], ["root": "./", "noindex": false], ["lang": "en", "title": "x"]])
        #expect(try renderer.render(later, with: "keyword-row") == "[./|en|셋|n]\n")
        #expect(renderer.stencils.shapeCount(of: "keyword-row") == 1)
        #expect(ContextLayers(layers).restricted(to: ["title", "noindex", "absent"]).count == 2)
    }

    @Test func postPagesOfEveryShapeAreTheEnginesBytes() throws {
        let renderer = try Self.load()
        #expect(renderer.stencils.eligible["post"] != nil && renderer.stencils.eligible["layout"] != nil)
        for (index, post) in Self.posts.enumerated() {
            let neighbours = PostNeighbours(
                board: Self.board, backPage: index % 3 == 0 ? nil : index, previous: index % 2 == 0 ? Self.posts[(index + 1) % 64] : nil,
                next: index % 3 == 0 ? Self.posts[(index + 7) % 64] : nil, parent: index % 4 == 0 ? Self.posts[(index + 9) % 64] : nil,
                parentMissing: index % 4 == 1, parentRemoved: index % 4 == 2,
                replies: Array(Self.posts[(index % 8)..<(index % 8 + index % 4)]))
            let data = Self.pages.postPageData(post, bodyHTML: "<p>본문 \(index) &amp;</p>", neighbours: neighbours)
            let engine = try Self.expectSameBytes(renderer, data.context, template: "post")
            // The typed page, read into slots (``SlotPlan``) once its shapes have stencils; with replies, through its layers.
            let typed = renderer.stencils.typedFills
            #expect(try renderer.renderPage(template: "post", data: data, relativeRoot: "../", title: "제목 <&>") == engine)
            #expect(renderer.stencils.typedFills == typed + (data.replies.isEmpty ? 1 : 0))
        }
        // The default templates' pages go through stencils, not the engine alone.
        #expect(renderer.stencils.shapeCount(of: "post") > 0 && renderer.stencils.shapeCount(of: "layout") > 0)
        #expect(renderer.stencils.shapeCount(of: RowPrerender.originalName(of: "partials/post-row")) > 0)
    }

    /// Version pages and tombstones set `noindex` over the site's, and a version page's `title` is its post's, over the
    /// head's: typed, read into slots, they are the bytes of their contexts.
    @Test func typedVersionPagesAndTombstonesAreTheirContextsBytes() throws {
        let renderer = try Self.load()
        for (index, post) in Self.posts.prefix(16).enumerated() {
            let version = PostVersion(
                version: index % 3 + 1, post: post, firstSeen: SiteFixture.now.addingTimeInterval(-86_400), lastSeen: SiteFixture.now)
            let next = Self.posts[(index + 5) % 64]
            let data = Self.pages.versionPageData(version, bodyHTML: "<p>옛 \(index)</p>", next: next, current: next, board: Self.board)
            let context = try renderer.renderPage(template: "version", context: data.context, relativeRoot: "../../", title: "판 <\(index)>")
            #expect(context.contains("noindex"))
            for _ in 0..<2 {
                #expect(try renderer.renderPage(template: "version", data: data, relativeRoot: "../../", title: "판 <\(index)>") == context)
            }
            let removed = RemovedPost(
                postId: post.postId, boardId: 1, isNotice: index % 2 == 0, redactedAt: SiteFixture.now, atSource: index % 3 == 0)
            let tombstone = Self.pages.tombstonePageData(removed, board: Self.board, backPage: index % 2 == 0 ? nil : index)
            let expected = try renderer.renderPage(template: "tombstone", context: tombstone.context, relativeRoot: "../", title: "삭제")
            for _ in 0..<2 {
                #expect(try renderer.renderPage(template: "tombstone", data: tombstone, relativeRoot: "../", title: "삭제") == expected)
            }
        }
        #expect(renderer.stencils.typedFills == 4 * 16)
    }

    /// A dictionary's nested values go into slots of the nested names (the site's keys: the top level's names are not
    /// a nested value's).
    @Test func aDictionarysNestedValuesTakeTheNestedNames() throws {
        let object: [String: Any] = ["a": "x", "o": 1]
        let row: [String: Any] = ["a": true]
        let strings: [String: String] = ["k": "v"]
        let context: [String: Any] = ["o": object, "l": [row], "b": 2, "s": strings]
        let table = try #require(SlotTable(context, names: NameList(["b", "l", "o", "s"]), nested: NameList(["a"])))
        guard case .object(let nested) = table.slots[2], case .leaf("x") = nested.slots[0] else {
            Issue.record("o: \(String(describing: table.slots[2]))")
            return
        }
        guard case .list(let rows) = table.slots[1], rows.count == 1, case .flag(true) = rows[0].slots[0] else {
            Issue.record("l: \(String(describing: table.slots[1]))")
            return
        }
        guard case .leaf("2") = table.slots[0], case .strings = table.slots[3] else {
            Issue.record("b, s: \(table.slots)")
            return
        }
        #expect(nested.slots.count == 1 && SlotTable(["x": 1.5], names: NameList(["x"])) == nil)
    }

    /// A typed page rendered before any page of its shape (no stencil yet: through its layers, which make them) and
    /// again (from its slots), with scripts (a list in the head) and the post's earlier versions (a list in the page), on
    /// a site that asks not to be indexed: the engine's bytes for the merged context each time.
    @Test func typedPagesWithListsOnANoindexSiteAreTheEnginesBytes() throws {
        var renderer = try Self.load()
        renderer.noindex = true
        let seen = SiteFixture.now.addingTimeInterval(-86_400)
        for (index, post) in Self.posts.prefix(12).enumerated() {
            let earlier = (1...(index % 3 + 1)).map { VersionKey(version: $0, contentHash: "h\($0)", firstSeen: seen, lastSeen: seen) }
            let neighbours = PostNeighbours(
                board: Self.board, backPage: nil, previous: nil, next: nil, parent: nil, parentMissing: false, replies: [])
            let data = Self.pages.postPageData(
                post, bodyHTML: "<p>\(index)</p>", neighbours: neighbours,
                history: SourceHistory(versions: VersionKeys(earlier: earlier, currentSince: SiteFixture.now)))
            let scripts = ["../assets/a.js", "../assets/b \(index % 2).js"]
            var merged = renderer.commonContext(relativeRoot: "../", title: "제목", scripts: scripts)
            merged.merge(data.context) { _, page in page }
            merged["content"] = try renderer.renderWithEngine(merged, with: "post")
            let engine = try renderer.renderWithEngine(merged, with: "layout")
            #expect(engine.contains("noindex") && engine.contains("b \(index % 2).js"))
            #expect(engine.components(separatedBy: "class=\"version-seen\"").count - 1 == earlier.count)
            let before = renderer.stencils.typedFills
            for _ in 0..<2 {
                #expect(try renderer.renderPage(template: "post", data: data, relativeRoot: "../", title: "제목", scripts: scripts) == engine)
            }
            // The second time at the latest, from the slots.
            #expect(renderer.stencils.typedFills > before)
        }
    }

    @Test func boardPagesWithPrerenderedRowsAreTheEnginesBytes() throws {
        let renderer = try Self.load()
        #expect(renderer.prerenders["board"]?.map(\.list) == ["posts"])
        #expect(renderer.prerenders["post"]?.map(\.list) == ["replies"])
        let listing = ListingPages(pinnedCount: 3, itemCount: 200)
        for page in [nil, 0, 1, 4] as [Int?] {
            for start in stride(from: 0, to: 64, by: 13) {
                let rows = Array((Self.posts + Self.posts)[start..<(start + 30)])
                let context = Self.pages.boardPage(board: Self.board, rows: rows, listing: listing, archivePage: page)
                try Self.expectSameBytes(renderer, context, template: "board")
            }
        }
        #expect((1...8).contains(renderer.stencils.shapeCount(of: "board")))
    }

    /// Keyword pages go through their stencil with the rows' HTML (``RowPrerender``'s flag and HTML only), and a row
    /// that arrives without them (a post whose text holds `U+0000`) is rendered by the row template inside the page.
    @Test func keywordPagesWithRowsAsHTMLAreTheEnginesBytes() throws {
        let base = try Self.load()
        let plan = try #require(base.stencilPlan(rowKeys: TemplateKeys.keywordRow, pageKeys: TemplateKeys.keywordPage))
        let renderer = base.with(plan.library)
        let names = try #require(renderer.stencils.eligible["keyword"])
        #expect(names.nested.contains(RowPrerender.flagKey) && names.nested.contains(RowPrerender.htmlKey))
        let listing = ListingPages(pinnedCount: 2, itemCount: 100)
        for (start, page) in [(0, nil), (13, 0), (40, 1)] as [(Int, Int?)] {
            let rows: [[String: Any]] = Self.posts[start..<(start + 20)].map { post in
                let (row, _, _) = Self.pages.keywordRow(for: post, boardName: "자유 <게시판>")
                guard !post.title.contains("\u{0}") else { return row }
                return [RowPrerender.flagKey: true, RowPrerender.htmlKey: "<tr><td>\(post.postId) & <b>행</b></td></tr>"]
            }
            let context = Self.pages.keywordPage(
                keyword: "서울 <&>", count: 102, countLabel: "102건", searchHref: "../search.html?q=%EC%84%9C", archivePage: page, listing: listing,
                rows: rows, fileName: { "k-1\($0.map { "-page-\($0 + 2)" } ?? "").html" })
            try Self.expectSameBytes(renderer, context, template: "keyword")
        }
        #expect(renderer.stencils.shapeCount(of: "keyword") > 0)
    }

    @Test func stencilsFillLeavesRawOrEscapedAsTheTemplatePrintedThem() throws {
        let stencil = try #require(
            Stencil(rendered: "<a>" + Stencil.placeholder(12) + "|" + HTMLEscaping.escape(Stencil.placeholder(0)) + "</a>", leafCount: 13))
        var leaves = Array(repeating: "", count: 13)
        leaves[12] = "<i>"
        leaves[0] = "<i>"
        #expect(stencil.filled(with: leaves) == "<a><i>|&lt;i&gt;</a>")
        #expect(Stencil(rendered: "a\u{0}b", leafCount: 1) == nil)
        #expect(Stencil(rendered: Stencil.placeholder(3), leafCount: 3) == nil)
        #expect(Stencil(rendered: "a\u{0}1&am", leafCount: 3) == nil)
    }

    @Test(arguments: [
        ("indented partial", ["post": "<div>\n  {{> partials/badges}}\n</div>\n{{title}}\n"]),
        ("transform", ["post": "{{uppercased(title)}}\n"]),
        ("implicit iterator", ["post": "{{#replies}}{{.}}{{/replies}}\n"]),
        ("delimiters", ["post": "{{=<% %>=}}<% title %>\n"]),
        ("through a partial", ["partials/badges": "{{#isNew}}{{uppercased(title)}}{{/isNew}}\n"]),
        ("dynamic partial", ["post": "{{title}}{{>*postType}}\n"]),
    ])
    func templatesThatMayPrintALeafOtherwiseAreLeftToTheEngine(_ case: (String, [String: String])) throws {
        let renderer = try Self.load(`case`.1, "stencil-refused-\(`case`.0)")
        #expect(renderer.stencils.eligible["post"] == nil, "\(`case`.0)")
        #expect(renderer.stencils.eligible["home"] != nil)
    }

    /// A comment ends at its first `}}` whatever it holds: a `{{/x}}` written in one is no closing tag, so the names
    /// after it are still read inside the section (here from each board's feed link), not baked into the layout's stencil.
    @Test func aCommentHoldingABraceDoesNotCloseASection() throws {
        let tags = TemplateRenderer.tags(in: "{{#a}}{{! } {{/a}}{{b}}{{/a}}")
        #expect(tags.map(\.sigil) == ["#", "!", "", "/"])
        var layout = try String(contentsOf: SiteFixture.templatesDirectory.appendingPathComponent("layout.mustache"), encoding: .utf8)
        try #require(layout.contains("{{#boardFeed}}\n"))
        layout = layout.replacingOccurrences(of: "{{#boardFeed}}\n", with: "{{#boardFeed}}{{! } {{/boardFeed}}\n")
        let renderer = try Self.load(["layout": layout])
        #expect(renderer.stencils.eligible["layout"]?.nested.contains("href") == true)
        for (index, board) in [Board(boardId: 1, displayName: "첫 게시판", orderNo: 1), Board(boardId: 2, displayName: "둘째", orderNo: 2)]
            .enumerated()
        {
            let neighbours = PostNeighbours(
                board: board, backPage: nil, previous: nil, next: nil, parent: nil, parentMissing: false, replies: [])
            try Self.expectSameBytes(renderer, Self.pages.postPage(Self.posts[index], bodyHTML: "", neighbours: neighbours), template: "post")
        }
    }

    @Test func anObjectOrAListPrintedAsAValueIsLeftToTheEngine() throws {
        let renderer = try Self.load(["post": "{{title}} {{parent}} {{{replies}}}\n"])
        #expect(renderer.stencils.eligible["post"]?.printed.isSuperset(of: ["title", "parent", "replies"]) == true)
        for (index, post) in Self.posts.prefix(4).enumerated() {
            let neighbours = PostNeighbours(
                board: Self.board, backPage: nil, previous: nil, next: nil, parent: Self.posts[index + 10], parentMissing: false,
                replies: [Self.posts[index + 20]])
            try Self.expectSameBytes(renderer, Self.pages.postPage(post, bodyHTML: "", neighbours: neighbours), template: "post")
        }
    }

    @Test func aPrerenderedRowReadsThePagesKeysItNamesAndItsOwnFirst() throws {
        // Each row is rendered with only the page's keys its partial names under its own: the page's `boardName` and
        // `root` print in every row, its `isFront` opens a section there, and the row's `title` wins over the page's.
        let renderer = try Self.load([
            "board": "{{#posts}}{{> partials/post-row}}{{/posts}}\n",
            "partials/post-row": "[{{root}}|{{boardName}}|{{title}}|{{#isFront}}front{{/isFront}}{{^pager}}-{{/pager}}|{{s.attachment}}]\n",
        ])
        let plan = try #require(renderer.prerenders["board"]?.first)
        #expect(plan.partial == "partials/post-row")
        for (page, listing) in [(nil, ListingPages(pinnedCount: 0, itemCount: 30)), (1, ListingPages(pinnedCount: 0, itemCount: 200))] {
            let context = Self.pages.boardPage(board: Self.board, rows: Array(Self.posts[0..<30]), listing: listing, archivePage: page)
            try Self.expectSameBytes(renderer, context, template: "board")
            var merged = renderer.commonContext(relativeRoot: "../", title: "제목 <&>")
            merged.merge(context) { _, own in own }
            let html = try renderer.render(merged, with: "board")
            #expect(html.contains("[../|\(HTMLEscaping.escape(Self.board.displayName))|제목 0|\(page == nil ? "front-" : "")|"))
        }
    }

    @Test func theCommonKeysATemplateReadsRenderItAsAllOfThemDo() throws {
        let renderer = try Self.load(["keyword-row": "[{{root}}|{{lang}}|{{title}}|{{#noindex}}n{{/noindex}}]\n"])
        let common = renderer.commonContext(relativeRoot: "../", title: "제목")
        let read = renderer.commonContext(readBy: "keyword-row", relativeRoot: "../", title: "제목")
        #expect(Set(read.keys) == ["root", "lang", "title", "noindex"])
        let row = Self.pages.rowData(for: Self.posts[3], root: "../").context
        var full = common
        full.merge(row) { _, own in own }
        var small = read
        small.merge(row) { _, own in own }
        #expect(try renderer.render(small, with: "keyword-row") == renderer.renderWithEngine(full, with: "keyword-row"))
        // A template without a stencil keeps every common key.
        let unsafe = try Self.load(["keyword-row": "{{=<% %>=}}<% root %>\n"])
        #expect(unsafe.commonContext(readBy: "keyword-row", relativeRoot: "../", title: "t").count == common.count)
    }

    @Test func rowsArePrerenderedOnlyWhenTheirSectionHoldsThePartialAlone() throws {
        let side = try Self.load([
            "board": "{{#posts}}{{> partials/post-row}}{{/posts}}{{> partials/side}}\n", "partials/side": "{{#posts}}{{title}};{{/posts}}\n",
        ])
        #expect(side.prerenders["board"] == nil)
        let sideContext = Self.pages.boardPage(
            board: Self.board, rows: Array(Self.posts[0..<30]), listing: ListingPages(pinnedCount: 0, itemCount: 30), archivePage: nil)
        try Self.expectSameBytes(side, sideContext, template: "board")
        let printed = try Self.load(["board": "{{#posts}}{{> partials/post-row}}{{/posts}}{{posts}}\n"])
        #expect(printed.prerenders["board"] == nil)
        let otherTag = try Self.load(["board": "{{#posts}}{{postId}}{{> partials/post-row}}{{/posts}}\n"])
        #expect(otherTag.prerenders["board"] == nil)
        let twoPartials = try Self.load(["board": "{{#posts}}{{> partials/post-row}}{{/posts}}{{#posts}}{{> partials/badges}}{{/posts}}\n"])
        #expect(twoPartials.prerenders["board"] == nil)
        let inSection = try Self.load(["board": "{{#pager}}{{#posts}}\n{{> partials/post-row}}\n{{/posts}}{{/pager}}\n"])
        let plan = try #require(inSection.prerenders["board"]?.first)
        #expect(plan.enclosing == ["pager"])
        // The pager is an object, which swift-mustache pushes: the rows are then rendered by the engine, same bytes.
        let listing = ListingPages(pinnedCount: 0, itemCount: 100)
        let context = Self.pages.boardPage(board: Self.board, rows: Array(Self.posts[0..<30]), listing: listing, archivePage: nil)
        #expect(plan.prerendered(ContextLayers([context]), reading: nil, render: { _ in "x" }) == nil)
        try Self.expectSameBytes(inSection, context, template: "board")
    }
}
