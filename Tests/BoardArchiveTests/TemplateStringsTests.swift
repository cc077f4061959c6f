import BoardArchive
import Foundation
import Mustache
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Interface strings are folded into the templates when they load: the folded template renders the same bytes as the
/// engine does with the tags, for every string of both languages.
@Suite struct TemplateStringsTests {
    /// What swift-mustache renders for `text` with the strings table as `s` (and `x` for a section).
    static func engineRendering(_ text: String, strings: SiteStrings) throws -> String? {
        _ = HTMLEscaping.registered
        return try MustacheTemplate(string: HTMLEscaping.pragmaLine + text).render(["s": strings.table, "x": true] as [String: Any])
    }

    @Test("every string, escaped, raw and inside a section, renders as the engine renders its tag", arguments: [SiteLanguage.ko, .en])
    func foldedEqualsEngine(language: SiteLanguage) throws {
        let strings = SiteStrings(language: language)
        var folded = 0
        for key in strings.table.keys.sorted() {
            let text = "<p title=\"{{s.\(key)}}\">{{{s.\(key)}}}|{{& s.\(key) }}</p>\n{{#x}}\n{{ s.\(key) }}\n{{/x}}\n"
            let result = TemplateRenderer.foldingStrings(in: text, strings: strings)
            if result != text { folded += 1 }
            #expect(try Self.engineRendering(result, strings: strings) == Self.engineRendering(text, strings: strings), "key \(key)")
        }
        #expect(folded > strings.table.count / 2)
    }

    @Test(
        "a tag is left alone when folding could change the page",
        arguments: [
            "{{s.nosuchstring}}", "{{=<% %>=}}<% s.home %>{{s.home}}", "{{{s.home}}", "{{s.home}}}x", "{{#s.home}}a{{/s.home}}",
            "{{^s.home}}a{{/s.home}}", "{{s.keywordCount}}", "{{! a {{s.home}} }}<a href=\"{{root}}\">", "{{% CONTENT_TYPE: TEXT}}{{s.home}}",
        ])
    func leftAlone(text: String) {
        // `keywordCount` holds a `{count}` placeholder: a brace next to template text could form a tag.
        #expect(TemplateRenderer.foldingStrings(in: text, strings: SiteStrings(language: .ko)) == text)
    }

    @Test("a tag prints its string escaped, a triple or ampersand tag as it is")
    func foldsTags() {
        let strings = SiteStrings(language: .en)
        let home = strings["home"]
        #expect(TemplateRenderer.foldingStrings(in: "<a>{{s.home}}</a>{{{ s.home }}}{{&s.home}}", strings: strings) == "<a>\(home)</a>\(home)\(home)")
        // Outside a comment only: a comment ends at its first `}}`.
        #expect(TemplateRenderer.foldingStrings(in: "{{! {{s.home}}{{s.home}}", strings: strings) == "{{! {{s.home}}\(home)")
    }

    @Test("no context but the common one holds the strings table")
    func onlyTheCommonContextHoldsStrings() {
        for keys in [
            TemplateKeys.home, TemplateKeys.board, TemplateKeys.post, TemplateKeys.tombstone, TemplateKeys.search, TemplateKeys.row,
            TemplateKeys.keywordRow, TemplateKeys.keywordPage,
        ] {
            #expect(!keys.contains("s"))
        }
        #expect(TemplateKeys.common.contains("s"))
    }
}
