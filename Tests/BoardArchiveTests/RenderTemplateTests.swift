import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite("Templates: loading, errors with file and line, escaping, strings")
struct RenderTemplateTests {
    /// A writable copy of the default templates folder under `root`.
    static func copyOfDefaultTemplates(in root: URL) throws -> URL {
        let copy = root.appendingPathComponent("templates", isDirectory: true)
        try FileManager.default.copyItem(at: SiteFixture.templatesDirectory, to: copy)
        return copy
    }

    private func load(_ directory: URL) throws -> TemplateRenderer {
        try TemplateRenderer.load(
            from: directory, strings: SiteStrings(language: .ko), clock: ArchiveClock(now: SiteFixture.now, timeZone: SiteFixture.seoul))
    }

    private func buildError(_ body: () throws -> Void) -> BuildError? {
        do {
            try body()
            return nil
        } catch {
            return error as? BuildError
        }
    }

    @Test("the default templates load, and every partial they use exists")
    func defaultTemplatesLoad() throws {
        let renderer = try load(SiteFixture.templatesDirectory)
        for name in ["layout", "home", "board", "post", "partials/post-row", "partials/pager", "partials/badges"] {
            #expect(renderer.templateNames.contains(name))
        }
    }

    @Test("a syntax error names the file and line")
    func syntaxError() throws {
        let templates = try Self.copyOfDefaultTemplates(in: try SiteFixture.temporaryDirectory())
        try "<h1>{{boardName}}</h1>\n<ul>\n{{#posts}}\n<li>{{title}}</li>\n{{/post}}\n</ul>\n"
            .write(to: templates.appendingPathComponent("board.mustache"), atomically: true, encoding: .utf8)
        let error = try #require(buildError { _ = try load(templates) })
        #expect(error.phase == .templates)
        guard case .templateSyntax = error.reason else {
            Issue.record("expected a syntax error, got \(error.reason)")
            return
        }
        let location = try #require(error.location)
        #expect(location.hasSuffix("templates/board.mustache:5:9") || location.contains("templates/board.mustache:5"))
        #expect(error.errorDescription?.contains("board.mustache:5") == true)
        #expect(error.errorDescription?.contains("does not match the open section") == true)
    }

    @Test("a missing partial names the including file and line instead of rendering nothing")
    func missingPartial() throws {
        let templates = try Self.copyOfDefaultTemplates(in: try SiteFixture.temporaryDirectory())
        try FileManager.default.removeItem(at: templates.appendingPathComponent("partials/pager.mustache"))
        let error = try #require(buildError { _ = try load(templates) })
        #expect(error.reason == .partialNotFound("partials/pager"))
        let location = try #require(error.location)
        let text = try String(contentsOf: templates.appendingPathComponent("board.mustache"), encoding: .utf8)
        let line = try #require(text.components(separatedBy: "\n").firstIndex { $0.contains("{{> partials/pager}}") }) + 1
        #expect(location.hasSuffix("templates/board.mustache:\(line)"))
        #expect(line > 1)
    }

    @Test("a template still reading the retired {{t.key}} search strings fails at its file and line")
    func retiredSearchStrings() throws {
        let templates = try Self.copyOfDefaultTemplates(in: try SiteFixture.temporaryDirectory())
        let file = templates.appendingPathComponent("keyword-index.mustache")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "{{s.noKeywords}}", with: "{{ t.noKeywords }}").utf8).write(to: file)
        let error = try #require(buildError { _ = try load(templates) })
        guard case .templateSyntax(let message) = error.reason else {
            Issue.record("expected a template error, got \(error.reason)")
            return
        }
        #expect(message.contains("{{s.key}}"))
        #expect(error.location?.hasSuffix("templates/keyword-index.mustache:12") == true)
        #expect(TemplateRenderer.retiredStringsLine(in: "a\n{{#t.x}}") == 2)
        #expect(TemplateRenderer.retiredStringsLine(in: "{{title}} {{s.t}} {{test.x}}") == nil)
        #expect(TemplateRenderer.retiredStringsLine(in: "{{#t}}{{prompt}}{{/t}}") == 1)
        #expect(TemplateRenderer.retiredStringsLine(in: "x\n{{ \n t.more}}") == 2)
    }

    @Test("a missing required template is an error naming it")
    func missingTemplate() throws {
        let templates = try Self.copyOfDefaultTemplates(in: try SiteFixture.temporaryDirectory())
        try FileManager.default.removeItem(at: templates.appendingPathComponent("post.mustache"))
        let error = try #require(buildError { _ = try load(templates) })
        #expect(error.reason == .templateNotFound("post"))
        #expect(error.location?.hasSuffix("templates/post.mustache") == true)
    }

    @Test("an asset a template links is required: a --templates folder without it fails at its file and line")
    func missingAsset() throws {
        let templates = try Self.copyOfDefaultTemplates(in: try SiteFixture.temporaryDirectory())
        try FileManager.default.removeItem(at: templates.appendingPathComponent("assets/site.css"))
        let error = try #require(buildError { _ = try load(templates) })
        #expect(error.reason == .assetNotFound("site.css"))
        #expect(error.location?.hasSuffix("templates/layout.mustache:10") == true)
        #expect(error.errorDescription?.contains("\"assets/site.css\"") == true)
    }

    @Test("the search page's script is required even though no template names it")
    func missingSearchScript() throws {
        let templates = try Self.copyOfDefaultTemplates(in: try SiteFixture.temporaryDirectory())
        try FileManager.default.removeItem(at: templates.appendingPathComponent("assets/search.js"))
        let error = try #require(buildError { _ = try load(templates) })
        #expect(error.reason == .assetNotFound("search.js"))
        #expect(error.location?.hasSuffix("templates/assets") == true)
    }

    @Test("asset references are found with their lines, in either escaping, without query or fragment")
    func assetScan() {
        let found = TemplateRenderer.assetReferences(
            in: "<link href=\"{{root}}assets/site.css\">\n<script src=\"{{{root}}}assets/js/app.js?v=1\"></script>\n{{root}}index.html")
        #expect(found.map(\.path) == ["site.css", "js/app.js"])
        #expect(found.map(\.line) == [1, 2])
    }

    @Test("a missing templates folder is an error")
    func missingFolder() throws {
        let folder = try SiteFixture.temporaryDirectory().appendingPathComponent("nope")
        let error = try #require(buildError { _ = try load(folder) })
        #expect(error.reason == .templatesDirectoryNotFound)
    }

    @Test("partial tags are found with their lines, whatever their spacing")
    func partialScan() {
        let found = TemplateRenderer.partialReferences(in: "a\n{{> one}}\n{{>two}} {{ > three }}\n{{>*dynamic}}\n{{! > not }}")
        #expect(found.map(\.name) == ["one", "two", "three"])
        #expect(found.map(\.line) == [2, 3, 3])
    }

    @Test("every value is escaped by the templates; only the Markdown body is raw")
    func valuesAreEscaped() throws {
        let renderer = try load(SiteFixture.templatesDirectory)
        let pages = PageContext(strings: renderer.strings, clock: renderer.clock)
        var post = SiteFixture.post(1, title: "<script>alert('t')</script>", at: "2024-05-15T01:00:00Z", writer: "\"><img src=x onerror=y>")
        post.postType = .normal
        let board = Board(boardId: 1, displayName: "<b onmouseover=x>board</b>", orderNo: 1)
        let html = try renderer.renderPage(
            template: "post",
            context: pages.postPage(
                post, bodyHTML: "<p>body</p>",
                neighbours: PostNeighbours(board: board, backPage: nil, previous: nil, next: nil, parent: nil, parentMissing: false, replies: [])),
            relativeRoot: "../", title: post.title)
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=y&gt;"))
        #expect(html.contains("&lt;b onmouseover=x&gt;board&lt;/b&gt;"))
        #expect(html.contains("<div class=\"post-body\">\n<p>body</p>"))
    }

    @Test("both languages define the same interface strings")
    func stringTables() {
        #expect(Set(SiteStrings.koreanTable.keys) == Set(SiteStrings.englishTable.keys))
        #expect(SiteStrings(language: .ko)["anonymous"] == "익명")
        #expect(SiteStrings(language: .ko)["notice"] == "공지")
        #expect(SiteStrings(language: .en)["anonymous"] == "Anonymous")
    }

    @Test("every {{s.key}} used by the default templates exists")
    func templateStringsExist() throws {
        for name in try TemplateRenderer.templateFiles(in: SiteFixture.templatesDirectory) {
            let text = try String(contentsOf: SiteFixture.templatesDirectory.appendingPathComponent(name + ".mustache"), encoding: .utf8)
            for match in text.matches(of: #/\{\{\s*s\.([A-Za-z]+)\s*\}\}/#) {
                #expect(SiteStrings.koreanTable[String(match.output.1)] != nil, "\(name) uses s.\(match.output.1)")
            }
        }
    }

    @Test("an English build uses English strings and lang=en")
    func englishBuild() async throws {
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(try SiteFixture.store(), into: output, language: .en)
        let home = try SiteFixture.text("index.html", in: output)
        #expect(home.contains("<html lang=\"en\">"))
        #expect(home.contains(">Boards</h1>"))
        let board = try SiteFixture.text("boards/1/index.html", in: output)
        #expect(board.contains(">Anonymous</td>"))
        #expect(board.contains(">Notice</span>"))
    }
}
