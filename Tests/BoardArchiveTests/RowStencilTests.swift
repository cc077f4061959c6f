import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Keyword rows rendered once per post and filled per keyword (``RowStencil``) give the bytes of rows rendered one by
/// one, and the plan is refused for templates where they might not.
@Suite struct RowStencilTests {
    static let clock = ArchiveClock(now: SiteFixture.now, timeZone: SiteFixture.seoul)

    @Test func placeholdersAreFilledRawOrEscapedAsTheTemplatePrintedThem() throws {
        let raw = RowStencil.placeholder(0)
        let escaped = HTMLEscaping.escape(RowStencil.placeholder(1))
        let stencil = try #require(RowStencil(rendered: "<td>" + raw + "</td><td>" + escaped + "</td>" + raw))
        #expect(stencil.filled(with: ["<mark>a</mark>", "<b>&", ""]) == "<td><mark>a</mark></td><td>&lt;b&gt;&amp;</td><mark>a</mark>")
        #expect(RowStencil(rendered: "no slots")?.filled(with: ["x", "y", "z"]) == "no slots")
    }

    @Test func aStrayNulOrAnUnknownSlotRefusesTheStencil() {
        #expect(RowStencil(rendered: "a\u{0}b") == nil)
        #expect(RowStencil(rendered: "a\u{0}Z&\u{0}") == nil)
        #expect(RowStencil(rendered: "a\u{0}A&amp") == nil)
        #expect(RowStencil(rendered: "a" + RowStencil.placeholder(2)) != nil)
    }

    @Test func rowAndPageKeysAreTheKeysTheContextsHold() throws {
        let pages = PageContext(strings: SiteStrings(language: .ko), clock: Self.clock)
        let post = KeywordPageTests.post(1, "제목", contents: "본문")
        #expect(Set(pages.row(for: post, root: "../").keys) == TemplateKeys.row)
        let writer = KeywordPageWriter(pages: pages, strings: SiteStrings(language: .ko), boardNames: [:])
        let keyword = SearchKeyword(text: "서울", slug: KeywordSelector.slug(for: "서울"))
        let context = writer.pageContext(
            keyword: keyword, count: 40, countLabel: "40", searchHref: "x", archivePage: nil, listing: ListingPages(pinnedCount: 0, itemCount: 40),
            rows: [])
        #expect(Set(context.keys).union(["title", "content"]) == TemplateKeys.keywordPage)
    }

    /// A copy of the default templates with `changes` (template name → text) applied.
    static func templates(_ changes: [String: String], _ name: String = #function) throws -> URL {
        let folder = try RenderTemplateTests.copyOfDefaultTemplates(in: SiteFixture.temporaryDirectory(name))
        for (template, text) in changes {
            try Data(text.utf8).write(to: folder.appendingPathComponent(template + ".mustache"))
        }
        return folder
    }

    static func plan(_ changes: [String: String], _ name: String = #function) throws -> TemplateRenderer.StencilPlan? {
        let renderer = try TemplateRenderer.load(from: templates(changes, name), strings: SiteStrings(language: .ko), clock: clock)
        return renderer.stencilPlan(rowKeys: TemplateKeys.keywordRow, pageKeys: TemplateKeys.keywordPage)
    }

    static let defaultRow =
        (try? String(contentsOf: SiteFixture.templatesDirectory.appendingPathComponent("keyword-row.mustache"), encoding: .utf8)) ?? ""

    @Test func theDefaultTemplatesAndRowsReadingSharedKeysGetAPlan() throws {
        #expect(try Self.plan([:]) != nil)
        #expect(try Self.plan(["keyword-row": "{{title}} {{root}} {{s.attachment}} {{s.keywordSearch}} {{{titleHTML}}} {{writerHTML}}\n"]) != nil)
    }

    @Test(arguments: [
        ["keyword-row": "{{#titleHTML}}x{{/titleHTML}}"],
        ["keyword-row": "{{^snippetHTML}}none{{/snippetHTML}}"],
        ["keyword-row": "{{keyword}}"],
        ["keyword-row": "<td>{{keyword\n}}</td>"],
        ["keyword-row": "{{#pager}}{{label}}{{/pager}}"],
        ["keyword-row": "{{titleHTML.count}}"],
        ["keyword-row": "{{uppercased(title)}}"],
        ["keyword-row": "{{.}}"],
        ["keyword-row": "{{={ }=}}<td>{keyword}</td>"],
        ["keyword-row": "{{> partials/uses-page}}", "partials/uses-page": "{{countLabel}}"],
        ["keyword-row": "{{>\npartials/uses-page}}", "partials/uses-page": "{{countLabel}}"],
        ["home": "{{=<% %>=}}<% boards %>"],
        ["keyword": "{{#posts}}\n  {{> keyword-row}}\n{{/posts}}"],
        ["keyword": "{{#posts}}{{#s}}{{> keyword-row}}{{/s}}{{/posts}}"],
        ["keyword": "{{#pager}}{{#posts}}\n{{> keyword-row}}\n{{/posts}}{{/pager}}"],
        ["keyword": "{{> keyword-row}}"],
        ["search": "{{#s}}{{> keyword-row}}{{/s}}<template id=\"search-row\">{{{rowTemplate}}}</template>"],
    ])
    func templatesThatMightDifferPerPageOrPerUseGetNoPlan(changes: [String: String]) throws {
        let name = "refuse-" + changes.keys.sorted().joined(separator: "-") + "-\(changes.values.map(\.count).reduce(0, +))"
        #expect(try Self.plan(changes, name.replacingOccurrences(of: "/", with: "-")) == nil, "\(changes)")
    }

    @Test func keywordPagesAreTheSameBytesWithAndWithoutStencils() throws {
        let row = """
            <tr data-id="{{postId}}"><td>{{titleHTML}}|{{{titleHTML}}}</td><td>{{&writerHTML}}{{{writerHTML}}}</td>\
            {{#hasSnippet}}<p>{{{snippetHTML}}}</p>{{/hasSnippet}}{{^hasSnippet}}<p>{{s.keywordSearch}}</p>{{/hasSnippet}}\
            <a href="{{root}}{{href}}">{{title}}</a>{{> partials/badges}}</tr>

            """
        let rows = [Self.defaultRow, row]
        for (index, text) in rows.enumerated() {
            let stenciled = try Self.templates(["keyword-row": text], "stencil-on-\(index)")
            let whole = try Self.templates(["keyword-row": text, "zz-delimiters": "{{=<% %>=}}"], "stencil-off-\(index)")
            let strings = SiteStrings(language: .ko)
            let planned = try TemplateRenderer.load(from: stenciled, strings: strings, clock: Self.clock)
            let unplanned = try TemplateRenderer.load(from: whole, strings: strings, clock: Self.clock)
            #expect(planned.stencilPlan(rowKeys: TemplateKeys.keywordRow, pageKeys: TemplateKeys.keywordPage) != nil)
            #expect(unplanned.stencilPlan(rowKeys: TemplateKeys.keywordRow, pageKeys: TemplateKeys.keywordPage) == nil)
            let configuration = BuildConfiguration(now: SiteFixture.now, timeZone: SiteFixture.seoul, keywords: ["서울", "반복", "<img"], topKeywords: 2)
            let (on, _) = try SearchPhaseHarness.run(
                boards: KeywordPageTests.boards, posts: KeywordPageTests.posts, configuration: configuration, templates: stenciled)
            let (off, _) = try SearchPhaseHarness.run(
                boards: KeywordPageTests.boards, posts: KeywordPageTests.posts, configuration: configuration, templates: whole)
            let pages = on.keys.filter { $0.hasPrefix("keywords/") && $0 != "keywords/index.html" }
            #expect(pages.count >= 4)
            for path in pages { #expect(on[path] == off[path], "\(path)") }
            #expect(on.keys.sorted() == off.keys.sorted())
        }
    }
}
