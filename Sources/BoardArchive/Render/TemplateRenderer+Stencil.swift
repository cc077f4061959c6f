import Foundation
import Mustache

extension TemplateRenderer {
    /// How keyword pages print rows rendered once per post (``RowStencil``) instead of once per keyword.
    ///
    /// ``stencilPlan(rowKeys:pageKeys:)`` makes one only when that gives the same bytes as rendering every
    /// row, checked on the templates' text:
    /// - the row template and the partials it includes read only row keys and keys every keyword page shares, never a
    ///   key of one page (`keyword`, `pager`, …) that the row does not hold itself;
    /// - they print the highlight keys (``RowStencil/slots``) only as variables, never as sections;
    /// - no template changes delimiters, uses inheritance, blocks, pragmas, dynamic partials, transforms or `{{.}}`
    ///   where that could reach the row, and no partial tag is indented (swift-mustache indents a partial's lines).
    struct StencilPlan: Sendable {
        /// The row template: `keyword-row`.
        static let rowTemplate = "keyword-row"
        /// The name the row template keeps in ``library``; not a name a template file can have.
        static let originalName = "keyword-row/stencil-original"
        /// The row key that says a row arrives pre-rendered, and the key holding it.
        static let preparedKey = "__stencil"
        static let rowHTMLKey = "__stencilRow"

        /// The templates with `keyword-row` replaced by a template that prints ``rowHTMLKey`` when ``preparedKey``
        /// is true, and renders the original row template otherwise.
        let library: MustacheLibrary
    }

    /// The plan for these templates, or nil when rows must be rendered one by one (see ``StencilPlan``).
    ///
    /// - Parameters:
    ///   - rowKeys: the keys every keyword row holds.
    ///   - pageKeys: the keys that differ from one keyword page to another.
    func stencilPlan(rowKeys: Set<String>, pageKeys: Set<String>) -> StencilPlan? {
        let texts = Dictionary(sources.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        guard texts[StencilPlan.rowTemplate] != nil, texts[StencilPlan.originalName] == nil else { return nil }
        for text in texts.values {
            guard !text.contains(StencilPlan.preparedKey), !text.utf8.contains(0), text.firstMatch(of: #/(?m)^\h+\{\{\s*>/#) == nil,
                text.firstMatch(of: #/\{\{\s*=/#) == nil
            else { return nil }
            for tag in Self.tags(in: text) {
                if ["=", "<", "$", "%"].contains(tag.sigil) || tag.name.hasPrefix("*") { return nil }
                // swift-mustache skips any whitespace inside a tag, line breaks included; these checks split on spaces and tabs.
                if tag.body.contains(where: { $0.isWhitespace && $0 != " " && $0 != "\t" }) { return nil }
            }
        }
        guard Self.includesRowOnlyInPosts(texts) else { return nil }
        // The row template and every partial it includes.
        var closure: Set<String> = [StencilPlan.rowTemplate]
        var pending = [StencilPlan.rowTemplate]
        while let name = pending.popLast() {
            for reference in Self.partialReferences(in: texts[name] ?? "") where closure.insert(reference.name).inserted {
                pending.append(reference.name)
            }
        }
        let slots = Set(RowStencil.slots)
        for name in closure {
            for tag in Self.tags(in: texts[name] ?? "") where !["!", "/", ">"].contains(tag.sigil) {
                let first = tag.name.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? ""
                if tag.name.contains("(") || tag.name.hasPrefix(".") || first.isEmpty { return nil }
                if pageKeys.contains(first) && !rowKeys.contains(first) { return nil }
                if slots.contains(first) && (tag.name != first || tag.sigil == "#" || tag.sigil == "^") { return nil }
            }
        }
        guard let original = library.getTemplate(named: StencilPlan.rowTemplate) else { return nil }
        var stencilLibrary = library
        stencilLibrary.register(original, named: StencilPlan.originalName)
        let key = StencilPlan.preparedKey
        let wrapper =
            "{{#\(key)}}{{{\(StencilPlan.rowHTMLKey)}}}{{/\(key)}}{{^\(key)}}{{> \(StencilPlan.originalName)}}{{/\(key)}}"
        guard let compiled = try? MustacheTemplate(string: HTMLEscaping.pragmaLine + wrapper) else { return nil }
        stencilLibrary.register(compiled, named: StencilPlan.rowTemplate)
        return StencilPlan(library: stencilLibrary)
    }

    /// The templates that may be rendered through ``ShapeStencils``, each with every name its tags and its partials'
    /// tags use (each part of a dotted name), sorted.
    ///
    /// A template is eligible when nothing in it or in the partials it includes can make its output depend on a text
    /// or number other than by printing it: no delimiter changes, inheritance, blocks, pragmas, dynamic partials,
    /// transforms or implicit-iterator tags (`{{.}}`), no indented partial tag (swift-mustache indents a partial's
    /// lines), no `U+0000` (the placeholders' mark) and no line break inside a tag (the checks read tags by spaces).
    static func stencilEligible(_ sources: [(name: String, text: String)]) -> [String: StencilNames] {
        let texts = Dictionary(sources.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        var names: [String: Set<String>] = [:]
        var printedNames: [String: Set<String>] = [:]
        var unsafe = Set<String>()
        for (name, text) in texts {
            if text.utf8.contains(0) || text.firstMatch(of: #/(?m)^\h+\{\{\s*>/#) != nil || text.firstMatch(of: #/\{\{\s*=/#) != nil {
                unsafe.insert(name)
                continue
            }
            var used = Set<String>()
            var printed = Set<String>()
            for tag in tags(in: text) where !["!", "/"].contains(tag.sigil) {
                if tag.sigil == ">" {
                    // A dynamic partial (`{{>*name}}`) picks its template by a value.
                    if tag.name.hasPrefix("*") || tag.body.contains("*") {
                        unsafe.insert(name)
                        break
                    }
                    continue
                }
                if ["", "&", "{"].contains(tag.sigil), let last = tag.name.split(separator: ".").last { printed.insert(String(last)) }
                let isOdd =
                    ["=", "<", "$", "%"].contains(tag.sigil) || tag.name.hasPrefix("*") || tag.name.hasPrefix(".") || tag.name.isEmpty
                    || tag.name.contains("(") || tag.body.contains(where: { $0.isWhitespace && $0 != " " && $0 != "\t" })
                if isOdd {
                    unsafe.insert(name)
                    break
                }
                used.formUnion(tag.name.split(separator: ".").map(String.init))
            }
            names[name] = used
            printedNames[name] = printed
        }
        var eligible: [String: StencilNames] = [:]
        for name in texts.keys {
            var closure: Set<String> = [name]
            var pending = [name]
            var readNames = Set<String>()
            var printedInClosure = Set<String>()
            var ok = true
            while let next = pending.popLast() {
                guard !unsafe.contains(next), let own = names[next] else {
                    ok = false
                    break
                }
                readNames.formUnion(own)
                printedInClosure.formUnion(printedNames[next] ?? [])
                for reference in partialReferences(in: texts[next] ?? "") where closure.insert(reference.name).inserted {
                    pending.append(reference.name)
                }
            }
            if ok { eligible[name] = StencilNames(all: readNames.sorted(), printed: printedInClosure) }
        }
        return eligible
    }

    /// Every tag of a template's text, in order: its sigil (`#`, `^`, `/`, `&`, `{`, `>`, `!`, `=`, `<`, `$`, `%`, or
    /// empty for a variable), its name trimmed of spaces and tabs, and its whole text between the braces.
    static func tags(in text: String) -> [(sigil: String, name: String, body: String)] {
        text.matches(of: #/\{\{(\{?)([^}]*)\}?\}\}/#).map { match in
            var body = Substring(match.output.2).drop { $0 == " " || $0 == "\t" }
            var sigil = String(match.output.1)
            if sigil.isEmpty, let first = body.first, "#^/&>!=<$%".contains(first) {
                sigil = String(first)
                body = body.dropFirst()
            }
            return (sigil, String(body.trimmingCharacters(in: .whitespaces)), String(match.output.2))
        }
    }

    /// Whether `keyword-row` is included only by `keyword`, each time directly inside its `{{#posts}}` section, with no
    /// open section around it that pushes a context (only inverted sections and the page's flags `hasPosts` and
    /// `isFront`): then a row's names resolve as in a stencil, in the row and then in the keys every page shares.
    static func includesRowOnlyInPosts(_ texts: [String: String]) -> Bool {
        for (name, text) in texts where name != "keyword" {
            if partialReferences(in: text).contains(where: { $0.name == StencilPlan.rowTemplate }) { return false }
        }
        var open: [(sigil: String, name: String)] = []
        for tag in tags(in: texts["keyword"] ?? "") {
            switch tag.sigil {
            case "#", "^": open.append((tag.sigil, tag.name))
            case "/": open.removeLast(open.isEmpty ? 0 : 1)
            case ">" where tag.name == StencilPlan.rowTemplate:
                guard let top = open.last, top.sigil == "#", top.name == "posts",
                    open.dropLast().allSatisfy({ $0.sigil == "^" || ["hasPosts", "isFront"].contains($0.name) })
                else { return false }
            default: continue
            }
        }
        return true
    }
}
