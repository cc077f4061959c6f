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
    package struct StencilPlan: Sendable {
        /// The row template: `keyword-row`.
        package static let rowTemplate = "keyword-row"

        /// The templates with `keyword-row` under ``RowPrerender``'s wrapper: a row holding
        /// ``RowPrerender/flagKey`` prints its ``RowPrerender/htmlKey``, any other row is rendered by the row template.
        package let library: MustacheLibrary
    }

    /// The plan for these templates, or nil when rows must be rendered one by one (see ``StencilPlan``).
    ///
    /// - Parameters:
    ///   - rowKeys: the keys every keyword row holds.
    ///   - pageKeys: the keys that differ from one keyword page to another.
    package func stencilPlan(rowKeys: Set<String>, pageKeys: Set<String>) -> StencilPlan? {
        let texts = Dictionary(sources.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        guard texts[StencilPlan.rowTemplate] != nil else { return nil }
        for text in texts.values {
            guard !text.contains(RowPrerender.flagKey), Self.isStencilSafe(text) else { return nil }
        }
        guard Self.includesRowOnlyInPosts(texts) else { return nil }
        let closure = Self.partialClosure(of: StencilPlan.rowTemplate, in: texts)
        let slots = Set(RowStencil.slots)
        for name in closure {
            for tag in Self.tags(in: texts[name] ?? "") where !["!", "/", ">"].contains(tag.sigil) {
                guard Self.namesAValue(tag.name) else { return nil }
                let first = tag.name.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? ""
                if pageKeys.contains(first) && !rowKeys.contains(first) { return nil }
                if slots.contains(first) && (tag.name != first || tag.sigil == "#" || tag.sigil == "^") { return nil }
            }
        }
        var stencilLibrary = library
        // Already wrapped when the keyword page's rows are pre-rendered for its own stencil (``RowPrerender``).
        guard (try? RowPrerender.wrap(StencilPlan.rowTemplate, in: &stencilLibrary)) != nil else { return nil }
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
        // Each safe template's own names; an unsafe one is absent. Its partials, included outside any section (their
        // names read the including context) or inside one (every name of theirs may read a nested value).
        var own: [String: StencilNames] = [:]
        var partialsOutside: [String: [String]] = [:]
        var partialsInside: [String: [String]] = [:]
        templates: for (name, text) in texts where isStencilSafe(text) {
            var (all, printed, nested): ([String], Set<String>, [String]) = ([], [], [])
            var depth = 0
            for tag in tags(in: text) where tag.sigil != "!" {
                if tag.sigil == "/" {
                    depth = max(0, depth - 1)
                    continue
                }
                if tag.sigil == ">" {
                    // A dynamic partial (`{{>*name}}`) picks its template by a value.
                    if tag.body.contains("*") { continue templates }
                    if depth > 0 { partialsInside[name, default: []].append(tag.name) } else { partialsOutside[name, default: []].append(tag.name) }
                    continue
                }
                guard namesAValue(tag.name) else { continue templates }
                if ["", "&", "{"].contains(tag.sigil), !tag.name.hasPrefix("s."), let last = tag.name.split(separator: ".").last {
                    printed.insert(String(last))
                }
                let parts = tag.name.split(separator: ".").map(String.init)
                all += parts
                // Inside a section a name may be read from the section's value; after a dot, always from a nested one.
                nested += depth > 0 ? parts : Array(parts.dropFirst())
                if tag.sigil == "#" || tag.sigil == "^" { depth += 1 }
            }
            own[name] = StencilNames(all: all, printed: printed, nested: nested)
        }
        var eligible: [String: StencilNames] = [:]
        for name in texts.keys {
            let closure = partialClosure(of: name, in: texts).map { own[$0] }
            guard closure.allSatisfy({ $0 != nil }) else { continue }
            let names = closure.compactMap { $0 }
            eligible[name] = StencilNames(
                all: Set(names.flatMap(\.all)).sorted(), printed: names.reduce(into: Set<String>()) { $0.formUnion($1.printed) },
                nested: nestedNames(of: name, own: own, outside: partialsOutside, inside: partialsInside, texts: texts).sorted())
        }
        return eligible
    }

    /// The names of template `name` and its partials that may be read from a value nested in the page's context: those
    /// inside a section or after a dot, and every name of a partial included inside a section.
    private static func nestedNames(
        of name: String, own: [String: StencilNames], outside: [String: [String]], inside: [String: [String]], texts: [String: String]
    ) -> Set<String> {
        // Partials included outside sections, followed from `name` (each once: a loop is refused when the templates load).
        var nested: Set<String> = []
        var seen: Set<String> = [name]
        var pending = [name]
        while let template = pending.popLast() {
            nested.formUnion(own[template]?.nested ?? [])
            for partial in inside[template] ?? [] {
                for included in partialClosure(of: partial, in: texts) { nested.formUnion(own[included]?.all ?? []) }
            }
            for partial in outside[template] ?? [] where seen.insert(partial).inserted { pending.append(partial) }
        }
        return nested
    }

    /// Whether nothing in `text` changes how swift-mustache reads tags or places a value: no `U+0000` (the
    /// placeholders' mark), indented partial tag (swift-mustache indents a partial's lines), delimiter change,
    /// inheritance, block, pragma or dynamic partial, and no line break inside a tag (these checks read tags by spaces).
    static func isStencilSafe(_ text: String) -> Bool {
        guard !text.utf8.contains(0), text.firstMatch(of: #/(?m)^\h+\{\{\s*>/#) == nil, text.firstMatch(of: #/\{\{\s*=/#) == nil else {
            return false
        }
        for tag in tags(in: text) {
            if ["=", "<", "$", "%"].contains(tag.sigil) || tag.name.hasPrefix("*") { return false }
            // swift-mustache skips any whitespace inside a tag, line breaks included; these checks split on spaces and tabs.
            if tag.body.contains(where: { $0.isWhitespace && $0 != " " && $0 != "\t" }) { return false }
        }
        return true
    }

    /// Whether a tag's name looks a value up by name: not `{{.}}` or `.name`, not empty, no transform.
    static func namesAValue(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("(")
    }

    /// `root` and every partial it includes, directly or not.
    static func partialClosure(of root: String, in texts: [String: String]) -> Set<String> {
        var closure: Set<String> = [root]
        var pending = [root]
        while let name = pending.popLast() {
            for reference in partialReferences(in: texts[name] ?? "") where closure.insert(reference.name).inserted {
                pending.append(reference.name)
            }
        }
        return closure
    }

    /// Every tag of a template's text, in order: its sigil (`#`, `^`, `/`, `&`, `{`, `>`, `!`, `=`, `<`, `$`, `%`, or
    /// empty for a variable), its name trimmed of spaces and tabs, its whole text between the braces, and where it stands.
    ///
    /// A comment ends at its first `}}` as swift-mustache reads it, whatever it holds (a `}` or a tag-like `{{/x}}`
    /// inside it is not a tag).
    static func tags(in text: String) -> [(sigil: String, name: String, body: String, range: Range<String.Index>)] {
        text.matches(of: #/\{\{(?:(!(?s:.*?))\}\}|(\{?)([^}]*)\}?\}\})/#).map { match in
            if let comment = match.output.1 {
                return ("!", String(comment.dropFirst().trimmingCharacters(in: .whitespaces)), String(comment), match.range)
            }
            var body = Substring(match.output.3 ?? "").drop { $0 == " " || $0 == "\t" }
            var sigil = String(match.output.2 ?? "")
            if sigil.isEmpty, let first = body.first, "#^/&>!=<$%".contains(first) {
                sigil = String(first)
                body = body.dropFirst()
            }
            return (sigil, String(body.trimmingCharacters(in: .whitespaces)), String(match.output.3 ?? ""), match.range)
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
