import Foundation
import Mustache

/// The search page's result row: the site's one row partial, `partials/post-row`, rendered by the build into the search
/// page as a `<template>` (`{{{rowTemplate}}}`) that `search.js` fills in for each result, so a result row is defined
/// where board and keyword rows are.
///
/// The partial and the partials it includes are rendered with every row value replaced by ``placeholder(_:)``
/// (private-use characters around the key, which no escaping changes) and every section on a row key replaced by
/// comments around its content: `<!--ba:s:key-->…<!--ba:e:key-->` (`ba:i:` for an inverted section). `search.js` keeps
/// or drops each section by the row's value, in element content and in attribute values alike, and puts each value in
/// as text (a key ending in `HTML` as its highlighted nodes). Interface strings (`{{s.key}}`) and every other tag are
/// rendered as on any page.
package enum SearchRowTemplate {
    /// The row partial.
    static let partial = "partials/post-row"
    /// The search page's key that holds the rendered row.
    package static let key = "rowTemplate"

    /// `U+E000 key U+E001`: where `search.js` puts the row's value of `key`.
    static func placeholder(_ key: String) -> String { "\u{E000}\(key)\u{E001}" }

    /// The keys a search row holds: every key of a keyword row.
    static var rowKeys: Set<String> { TemplateKeys.keywordRow }

    /// The partial rendered for `search.js`.
    ///
    /// - Throws: ``BuildError`` (phase `templates`) naming the file of a tag the browser cannot follow: a delimiter change,
    ///   inheritance, a block, a pragma or a dynamic partial.
    package static func render(with renderer: TemplateRenderer) throws -> String {
        let texts = Dictionary(renderer.sources.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        let source = try inlined(partial, texts: texts, directory: renderer.directory)
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(string: HTMLEscaping.pragmaLine + source)
        } catch {
            throw BuildError(phase: .templates, underlying: error, location: TemplateRenderer.displayPath(renderer.directory, partial))
        }
        var context = renderer.commonContext(relativeRoot: "", title: "")
        for key in rowKeys { context[key] = placeholder(key) }
        return template.render(context)
    }

    /// The text of template `name` with its partials put in place (the loader refuses loops) and its sections on row keys
    /// as comments.
    private static func inlined(_ name: String, texts: [String: String], directory: URL) throws -> String {
        let text = texts[name] ?? ""
        var result = ""
        var rest = text.startIndex
        for (sigil, tagName, body, range) in TemplateRenderer.tags(in: text) {
            result += text[rest..<range.lowerBound]
            rest = range.upperBound
            switch sigil {
            case ">" where !tagName.hasPrefix("*"):
                result += try inlined(tagName, texts: texts, directory: directory)
            case "#" where rowKeys.contains(tagName), "^" where rowKeys.contains(tagName), "/" where rowKeys.contains(tagName):
                result += "<!--ba:\(sigil == "#" ? "s" : sigil == "^" ? "i" : "e"):\(tagName)-->"
            case "=", "<", "$", "%", ">":
                throw BuildError(
                    phase: .templates,
                    reason: .templateSyntax(
                        "the search page fills \(partial) in the browser, which cannot follow the tag {{\(body)}}; "
                            + "remove it from the row's templates"),
                    location: TemplateRenderer.displayPath(directory, name))
            default:
                result += text[range]
            }
        }
        return result + text[rest...]
    }
}
