import BoardArchiveModel
import Foundation

extension TemplateRenderer {
    /// `text` with every `{{s.key}}` tag replaced by the interface string it prints, HTML-escaped, and every
    /// `{{{s.key}}}` or `{{& s.key}}` by the string as it is: what the tag renders on every page of a build, since
    /// the strings are the same for the whole build and no context but the common one holds `s`
    /// (``TemplateKeys/common``; a test checks that no other context declares it).
    ///
    /// swift-mustache looks a name up per tag and per page, climbing the context stack with several dynamic casts per
    /// level; `s.key` is found at the bottom of the stack and then once more inside the table, which made the
    /// interface strings the dearest tags of a page. The engine still renders every other tag.
    ///
    /// A tag is left as it is when its string is empty or only whitespace (a line whose only other tags are sections
    /// would become a standalone line, which Mustache removes), holds a brace (it could form a tag with the text next
    /// to it) or a line break, or is not found in the table; inside a comment (which ends at its first `}}`, so a tag
    /// there ends the comment early); and everywhere in a template that changes its delimiters (`{{=…=}}`) or sets
    /// its own content type (`{{% CONTENT_TYPE: …}}`, whose escaping may differ).
    static func foldingStrings(in text: String, strings: SiteStrings) -> String {
        if text.contains("{{=") || text.contains("{{%") { return text }
        return text.replacing(#/\{\{![\s\S]*?\}\}|\{\{(\{)?\s*(&)?\s*s\.([A-Za-z0-9_]+)\s*(\})?\}\}/#) { match -> String in
            guard !match.output.0.hasPrefix("{{!") else { return String(match.output.0) }
            let triple = match.output.1 != nil
            let closesTriple = match.output.4 != nil
            guard triple == closesTriple, !(triple && match.output.2 != nil), let name = match.output.3, let value = strings.table[String(name)],
                !value.allSatisfy(\.isWhitespace), !value.contains(where: { $0 == "{" || $0 == "}" || $0.isNewline })
            else { return String(match.output.0) }
            return triple || match.output.2 != nil ? value : HTMLEscaping.escape(value)
        }
    }
}
