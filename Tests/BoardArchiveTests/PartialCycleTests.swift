import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Partials that include each other in a loop are refused when the templates load, naming the chain of files, instead
/// of overflowing the stack (a segmentation fault, exit 139) when a page renders.
@Suite("Templates: partial loops")
struct PartialCycleTests {
    /// A loop to write into a copy of the default templates: (file, line appended) pairs, and the chain expected.
    struct Loop: Sendable, CustomTestStringConvertible {
        var name: String
        var appended: [(file: String, text: String)]
        var chain: [String]
        var testDescription: String { name }
    }

    static let loops = [
        Loop(
            name: "a partial includes itself", appended: [("partials/badges", "{{> partials/badges}}")],
            chain: ["partials/badges", "partials/badges"]),
        Loop(
            name: "two partials include each other",
            appended: [("partials/badges", "{{>partials/pager}}"), ("partials/pager", "{{> partials/badges }}")],
            chain: ["partials/badges", "partials/pager", "partials/badges"]),
        Loop(
            name: "three partials, inside sections",
            appended: [
                // partials/post-row already includes partials/badges, on its line 2.
                ("partials/badges", "{{#posts}}{{> partials/pager}}{{/posts}}"), ("partials/pager", "{{^x}}{{> partials/post-row}}{{/x}}"),
            ],
            chain: ["partials/badges", "partials/pager", "partials/post-row", "partials/badges"]),
        Loop(name: "a page includes itself", appended: [("post", "{{> post}}")], chain: ["post", "post"]),
        Loop(
            name: "an unused partial includes itself", appended: [("partials/unused", "{{> partials/unused}}")],
            chain: ["partials/unused", "partials/unused"]),
    ]

    @Test(arguments: loops)
    func aPartialLoopIsRefusedNamingTheChain(loop: Loop) throws {
        let templates = try RenderTemplateTests.copyOfDefaultTemplates(in: try SiteFixture.temporaryDirectory())
        var lines = ["partials/post-row": 2]
        for (file, text) in loop.appended {
            let url = templates.appendingPathComponent(file + ".mustache")
            let old = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let body = old.isEmpty || old.hasSuffix("\n") ? old : old + "\n"
            try (body + text + "\n").write(to: url, atomically: true, encoding: .utf8)
            lines[file] = body.split(separator: "\n", omittingEmptySubsequences: false).count
        }
        let error = try #require(
            throws: BuildError.self,
            performing: {
                try TemplateRenderer.load(
                    from: templates, strings: SiteStrings(language: .ko), clock: ArchiveClock(now: SiteFixture.now, timeZone: SiteFixture.seoul))
            })
        let expected = loop.chain.dropLast().map { "\($0).mustache:\(lines[$0] ?? 0)" } + ["\(loop.chain.last ?? "").mustache"]
        #expect(error.reason == .partialCycle(expected))
        #expect(error.phase == .templates)
        #expect(error.errorDescription?.contains(expected.joined(separator: " → ")) == true)
    }

    @Test func aPartialIncludedTwiceWithoutALoopIsFine() throws {
        let templates = try RenderTemplateTests.copyOfDefaultTemplates(in: try SiteFixture.temporaryDirectory())
        let url = templates.appendingPathComponent("post.mustache")
        try (try String(contentsOf: url, encoding: .utf8) + "{{> partials/badges}}{{> partials/badges}}\n").write(
            to: url, atomically: true, encoding: .utf8)
        _ = try TemplateRenderer.load(
            from: templates, strings: SiteStrings(language: .ko), clock: ArchiveClock(now: SiteFixture.now, timeZone: SiteFixture.seoul))
    }
}
