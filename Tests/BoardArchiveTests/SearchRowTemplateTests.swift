import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The search page's row template (``SearchRowTemplate``): `partials/post-row` with values as placeholders and sections on
/// row keys as comments, for `search.js` to fill in.
@Suite("Search row template")
struct SearchRowTemplateTests {
    static func render(_ changes: [String: String], _ name: String = #function) throws -> String {
        let renderer = try TemplateRenderer.load(
            from: RowStencilTests.templates(changes, name), strings: SiteStrings(language: .ko), clock: RowStencilTests.clock)
        return try SearchRowTemplate.render(with: renderer)
    }

    @Test("sections on row keys become comments, in attributes and content, inverted ones too; partials are put in place")
    func markers() throws {
        let row = try Self.render([
            "partials/post-row": "<tr class=\"r{{#isNotice}} n{{/isNotice}}{{^isReply}} plain{{/isReply}}\">{{> partials/cell}}{{! a note }}</tr>",
            "partials/cell": "<td>{{#hasComments}}[{{commentsCount}}]{{/hasComments}}{{{titleHTML}}} {{s.attachment}}{{#s}}.{{/s}}</td>",
        ])
        let p = SearchRowTemplate.placeholder
        #expect(
            row == "<tr class=\"r<!--ba:s:isNotice--> n<!--ba:e:isNotice--><!--ba:i:isReply--> plain<!--ba:e:isReply-->\">"
                + "<td><!--ba:s:hasComments-->[\(p("commentsCount"))]<!--ba:e:hasComments-->\(p("titleHTML")) 첨부 파일 있음.</td></tr>")
    }

    @Test("the default row: every value a placeholder, every flag a section")
    func defaultRow() throws {
        let row = try Self.render([:])
        for key in ["postId", "href", "titleHTML", "writerHTML", "snippetHTML", "boardName", "iso", "dateLabel", "fullDate", "viewCount"] {
            #expect(row.contains(SearchRowTemplate.placeholder(key)), "\(key)")
        }
        for flag in ["isNotice", "isReply", "isNew", "hasComments", "hasBoardName", "hasSnippet", "hasAttachment"] {
            #expect(row.contains("<!--ba:s:\(flag)-->") && row.contains("<!--ba:e:\(flag)-->"), "\(flag)")
        }
        #expect(!row.contains("{{"))
    }

    @Test("a row the browser cannot fill, or a search page without it, is refused naming the file")
    func refusals() throws {
        #expect(throws: BuildError.self) { _ = try Self.render(["partials/post-row": "{{=<% %>=}}<tr><td><%title%></td></tr>"]) }
        #expect(throws: BuildError.self) { _ = try Self.render(["partials/post-row": "<tr>{{>*dynamic}}</tr>"]) }
        do {
            _ = try Self.render(["search": "<p>no rows</p>"])
            Issue.record("a search page without {{{rowTemplate}}} should be refused")
        } catch let error as BuildError {
            #expect(error.phase == .templates && error.location?.hasSuffix("search.mustache") == true, "\(error)")
        }
    }
}
