import BoardArchiveModel
import Foundation
import Mustache

/// A page rendered once per *shape* of its context, then filled in for every context of that shape.
///
/// swift-mustache 2.1.1 looks up each tag through up to eight protocol casts and a `split` of its name; at 100,000
/// posts that was two thirds of the build's time in the engine. Most of a page's tags print a value, and which
/// parts of a template print is decided only by the context's flags, list lengths and which objects are present:
/// its *shape*. So the first page of a shape is rendered by swift-mustache with a placeholder in place of every text
/// and number ("leaf"), the result is cut at the placeholders into a ``Stencil``, and every later page of that shape is
/// the stencil's text with its own leaves put in (escaped where the template escaped them). Same bytes as rendering
/// every page, by construction: the engine itself decided where each leaf goes.
///
/// That holds only for templates whose output depends on leaves by printing them, which ``ShapeStencils/eligible``
/// checks on the templates' text (see ``TemplateRenderer/stencilEligible(_:)``), and for contexts made only of the
/// types ``ContextShape`` knows; anything else is rendered by the engine as before.
enum ContextShape {
    /// The values a context may hold (nested objects as dictionaries).
    typealias Value = ShapeValue<[String: Any]>

    /// What `value` is to a shape, by its exact type (a cast such as `as? [String: Any]` would also take a
    /// `[String: String]`); nil for a type the stencils do not take.
    @inline(__always)
    static func value(_ value: Any, key: String) -> Value? {
        let type = ObjectIdentifier(Swift.type(of: value))
        if type == ObjectIdentifier(String.self), let text = value as? String { return .leaf(text) }
        if type == ObjectIdentifier(Int.self), let number = value as? Int { return .leaf(String(number)) }
        if type == ObjectIdentifier(Bool.self), let flag = value as? Bool { return .flag(flag) }
        if type == ObjectIdentifier([String: Any].self), let object = value as? [String: Any] { return .object(object) }
        if type == ObjectIdentifier([[String: Any]].self), let list = value as? [[String: Any]] { return .list(list) }
        if type == ObjectIdentifier([String: String].self), key == "s" { return .strings }
        return nil
    }

    /// Feeds the shape of `context` into `shape` (a cache key of the stencils, not a file's digest) and appends its
    /// leaves, as text, in the order of `names`; false when one of them holds a value of another type. The shape is,
    /// for each of `names` the context holds, in that order: its place in `names` and its kind, with the flag's value,
    /// the list's length and nested values' shapes; then an end mark.
    ///
    /// - Parameter context: the layers, each name's value the first layer's that holds it (``ContextLayers``).
    ///   - names: every name the template's tags use (``StencilNames/all``), or for a nested value the names
    ///   that may be read from one (`nested`): no other key of a context can change the output. Whichever of the two
    ///   (a layer or the names) is shorter is looked up in the other: a row holds a few of the many names a page's rows may read (a keyword
    ///   page's rows hold two), and a page's context many keys the layout never reads. A dictionary's own order differs
    ///   from one instance to the next, so the order is the names'.
    ///   - printed: the names a variable tag prints: one holding an object or a list (which swift-mustache would print as
    ///     Swift's description of it) makes the context one for the engine.
    static func walk(
        _ context: ContextLayers, names: NameList, nested: NameList, printed: Set<String> = [], shape: inout BuildDigest, leaves: inout [String]
    ) -> Bool {
        let layers = context.layers
        // For each place of `names`, the layer holding it first and the index of its value there. Each layer is read
        // the cheaper way (its keys looked up in the names or the names in it), the last layer first so that an earlier
        // layer's value replaces a later one's.
        var found = [(layer: Int, index: Dictionary<String, Any>.Index)?](repeating: nil, count: names.list.count)
        for number in layers.indices.reversed() {
            let layer = layers[number]
            if layer.count < names.list.count {
                var index = layer.startIndex
                while index != layer.endIndex {
                    if let place = names.places[layer[index].key] { found[place] = (number, index) }
                    layer.formIndex(after: &index)
                }
            } else {
                for (place, name) in names.list.enumerated() {
                    if let index = layer.index(forKey: name) { found[place] = (number, index) }
                }
            }
        }
        for (place, entry) in found.enumerated() {
            guard let (number, index) = entry else { continue }
            let (name, value) = layers[number][index]
            guard add(value, name: name, place: place, nested: nested, printed: printed, shape: &shape, leaves: &leaves) else { return false }
        }
        shape.add(-1)
        return true
    }

    /// Feeds one value found under `name` (at `place` of the names) into `shape` and `leaves`; false when it is of a type
    /// the stencils do not take.
    @inline(__always)
    private static func add(
        _ found: Any, name: String, place: Int, nested: NameList, printed: Set<String>, shape: inout BuildDigest, leaves: inout [String]
    ) -> Bool {
        guard let value = value(found, key: name) else { return false }
        return value.add(name: name, place: place, printed: printed, shape: &shape, leaves: &leaves) { object, shape, leaves in
            walk(ContextLayers([object]), names: nested, nested: nested, printed: printed, shape: &shape, leaves: &leaves)
        }
    }

    /// `context` with its leaves replaced by ``Stencil/placeholder(_:)`` `next`, `next + 1`, …, in
    /// ``walk(_:names:nested:printed:shape:leaves:)``'s order.
    static func placeholders(_ context: [String: Any], names: [String], nested: [String], next: inout Int) -> [String: Any] {
        var copy = context
        for name in names {
            switch context[name].flatMap({ value($0, key: name) }) {
            case .leaf:
                copy[name] = Stencil.placeholder(next)
                next += 1
            case .object(let object):
                copy[name] = placeholders(object, names: nested, nested: nested, next: &next)
            case .list(let list):
                copy[name] = list.map { placeholders($0, names: nested, nested: nested, next: &next) }
            case .flag, .strings, nil:
                continue
            }
        }
        return copy
    }
}

/// What a value is to a shape: a text or number printed (a leaf), a flag, a nested object, a list of them, or the
/// interface strings. `Object` is how a nested object is held: a context's dictionary, or a typed page's slots
/// (``SlotTable``).
enum ShapeValue<Object> {
    case leaf(String)
    case flag(Bool)
    case object(Object)
    case list([Object])
    /// The interface strings (`s`): the same table on every page of a build, printed as it is.
    case strings

    /// Its code in the shape's digest.
    var code: Int {
        switch self {
        case .leaf: 1
        case .flag(let flag): flag ? 2 : 3
        case .object: 4
        case .list: 5
        case .strings: 6
        }
    }

    /// Feeds this value, found under `name` at `place` of a template's names, into a shape: its place and code, a flag's
    /// value, a list's length, a leaf's text into `leaves`, a nested object's own shape and leaves by `nested`. False when
    /// a name a variable tag prints (`printed`) holds an object or a list, or `nested` says so.
    @inline(__always)
    func add(
        name: String, place: Int, printed: Set<String>, shape: inout BuildDigest, leaves: inout [String],
        nested: (Object, inout BuildDigest, inout [String]) -> Bool
    ) -> Bool {
        shape.add(place)
        shape.add(code)
        switch self {
        case .leaf(let text):
            leaves.append(text)
        case .object(let object):
            guard !printed.contains(name), nested(object, &shape, &leaves) else { return false }
        case .list(let list):
            guard !printed.contains(name) else { return false }
            shape.add(list.count)
            for element in list {
                guard nested(element, &shape, &leaves) else { return false }
            }
        case .flag, .strings:
            break
        }
        return true
    }
}

extension ShapeValue: Sendable where Object: Sendable {}

/// A context as layers, read in order: a name's value is the first layer's that holds it, as in the layers merged into
/// one dictionary (a page's keys over its head's over the site's, a row's over its page's). The stencils read the layers
/// as they are; only the engine, for a shape's first page, is given them merged.
package struct ContextLayers {
    let layers: [[String: Any]]

    package init(_ layers: [[String: Any]]) {
        self.layers = layers
    }

    /// The value of `name`: the first layer's that holds it.
    subscript(name: String) -> Any? {
        for layer in layers {
            if let value = layer[name] { return value }
        }
        return nil
    }

    /// The layers as one dictionary.
    var merged: [String: Any] {
        guard var merged = layers.first else { return [:] }
        for layer in layers.dropFirst() {
            merged.reserveCapacity(merged.count + layer.count)
            for (key, value) in layer where merged.index(forKey: key) == nil { merged[key] = value }
        }
        return merged
    }

    /// The keys among `names` with their values: all a template whose tags use only those names can read
    /// (``StencilNames/all``).
    func restricted(to names: [String]) -> [String: Any] {
        var kept: [String: Any] = Dictionary(minimumCapacity: min(names.count, layers.reduce(0) { $0 + $1.count }))
        for name in names {
            if let value = self[name] { kept[name] = value }
        }
        return kept
    }
}

/// The names an eligible template and its partials use: every part of every tag's name, sorted (the only keys of a
/// context that can change its output), and the last part of every variable tag's name (what it prints; an interface
/// string `{{s.key}}` prints a text of the strings table, whatever a page holds under `key`).
struct StencilNames: Sendable, Equatable {
    let all: [String]
    let printed: Set<String>
    /// The names that may be read from a value nested in the context (inside a section, after a dot), sorted: the only
    /// keys of a nested object or a list's item that can change the output (a subset of ``all``).
    let nested: [String]
    /// ``all`` and ``nested`` with the place of each name (what ``ContextShape/walk(_:names:nested:printed:shape:leaves:)``
    /// reads).
    let allNames: NameList
    let nestedNames: NameList

    init(all: [String], printed: Set<String>, nested: [String]) {
        self.all = all
        self.printed = printed
        self.nested = nested
        allNames = NameList(all)
        nestedNames = NameList(nested)
    }

    /// These names with `names` among ``all`` and ``nested`` (a row's ``RowPrerender`` flag and HTML, read wherever the
    /// row's wrapper is included).
    func adding(_ names: Set<String>) -> StencilNames {
        StencilNames(all: Set(all).union(names).sorted(), printed: printed, nested: Set(nested).union(names).sorted())
    }
}

/// Names in their order, and the place of each.
struct NameList: Sendable, Equatable {
    let list: [String]
    let places: [String: Int]

    init(_ list: [String]) {
        self.list = list
        places = Dictionary(list.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A template's output for one shape: text, and the places where leaves go.
struct Stencil: Sendable {
    /// One piece of the output: text to copy, or a leaf to put in (raw or escaped).
    enum Piece: Sendable, Equatable {
        case text(String)
        case leaf(Int, escaped: Bool)
    }

    let pieces: [Piece]
    /// The bytes of the text pieces: with the leaves', what the output is made room for at once.
    let textBytes: Int

    /// The placeholder of leaf `index`: `U+0000`, the index, `&`, `U+0000`. Escaping turns its `&` into `&amp;`, which
    /// tells an escaped `{{x}}` from a raw `{{{x}}}`.
    static func placeholder(_ index: Int) -> String {
        "\u{0}\(index)&\u{0}"
    }

    /// The stencil of `rendered`, a template rendered with ``ContextShape/placeholders(_:next:)`` for `leafCount` leaves;
    /// nil when it holds a `U+0000` that is not a placeholder.
    init?(rendered: String, leafCount: Int) {
        let bytes = Array(rendered.utf8)
        var pieces: [Piece] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0 else {
                index += 1
                continue
            }
            guard let (leaf, escaped, end) = Self.placeholder(in: bytes, at: index), leaf < leafCount else { return nil }
            if start < index { pieces.append(.text(String(decoding: bytes[start..<index], as: UTF8.self))) }
            pieces.append(.leaf(leaf, escaped: escaped))
            index = end
            start = end
        }
        if start < bytes.count { pieces.append(.text(String(decoding: bytes[start...], as: UTF8.self))) }
        self.pieces = pieces
        textBytes = pieces.reduce(0) { total, piece in
            if case .text(let text) = piece { return total + text.utf8.count }
            return total
        }
    }

    /// The placeholder starting at `index` (a `U+0000`): its leaf, whether it was escaped, and the index after it.
    private static func placeholder(in bytes: [UInt8], at index: Int) -> (Int, Bool, Int)? {
        var cursor = index + 1
        var leaf = 0
        let digitsStart = cursor
        while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9"), cursor - digitsStart < 9 {
            leaf = leaf * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
            cursor += 1
        }
        guard cursor > digitsStart else { return nil }
        for (marker, escaped) in [(Array("&\u{0}".utf8), false), (Array("&amp;\u{0}".utf8), true)] {
            let end = cursor + marker.count
            if end <= bytes.count, bytes[cursor..<end].elementsEqual(marker) { return (leaf, escaped, end) }
        }
        return nil
    }

    /// The output with leaf `i` as `leaves[i]`, escaped where the template escaped it.
    func filled(with leaves: [String]) -> String {
        var output = ""
        // Room for every piece at once (an escaped leaf may need more): growing page by page copied the page again.
        output.reserveCapacity(leaves.reduce(textBytes) { $0 + $1.utf8.count })
        for piece in pieces {
            switch piece {
            case .text(let text): output += text
            case .leaf(let leaf, let escaped): output += escaped ? HTMLEscaping.escape(leaves[leaf]) : leaves[leaf]
            }
        }
        return output
    }
}

/// The stencils of one build's templates, by template and shape, shared by every rendering thread.
final class ShapeStencils: @unchecked Sendable {
    /// The templates whose output depends on leaves only by printing them, each with every name its tags and its
    /// partials' tags use (each part of a dotted name), sorted: the only keys of a context that can change its output.
    let eligible: [String: StencilNames]
    /// Shapes kept per template; past it (a template whose shapes vary from page to page, say a list of rows with
    /// their own flags), the template is rendered by the engine.
    static let capacity = 512

    private struct Key: Hashable {
        let template: String
        let shape: BuildDigest
    }

    private let lock = NSLock()
    /// nil: a shape whose output could not be cut into a stencil.
    private var stencils: [Key: Stencil?] = [:]
    private var shapes: [String: Int] = [:]
    /// The shapes a typed page was checked to read as its layers do, by template and the plan that read it
    /// (``typedStencil(_:shape:plan:check:)``).
    private var typedChecked: Set<Key> = []
    /// Pages filled whole from typed slots (``SlotPlan``), for the tests.
    private var typedPages = 0

    init(eligible: [String: StencilNames]) {
        self.eligible = eligible
    }

    /// How many shapes of `template` were rendered by the engine so far.
    func shapeCount(of template: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return shapes[template] ?? 0
    }

    /// The stencil of `template` for `shape` read from a typed page's slots, when a page of that shape was rendered
    /// already; the first time `plan` (``SlotPlan``, one per page template) reads that shape, only when `check` (the
    /// page's layers walked as ``render(_:with:engine:)`` walks them) gives the same shape and leaves.
    func typedStencil(_ template: String, shape: BuildDigest, plan: String, check: () -> Bool) -> Stencil? {
        let key = Key(template: template, shape: shape)
        let checkKey = Key(template: plan + "\n" + template, shape: shape)
        lock.lock()
        let found = stencils[key] ?? nil
        let checked = typedChecked.contains(checkKey)
        lock.unlock()
        guard let found else { return nil }
        if checked { return found }
        guard check() else { return nil }
        lock.lock()
        typedChecked.insert(checkKey)
        lock.unlock()
        return found
    }

    /// Counts a page filled whole from typed slots.
    func countTypedPage() {
        lock.lock()
        typedPages += 1
        lock.unlock()
    }

    /// How many pages were filled whole from typed slots so far.
    var typedFills: Int {
        lock.lock()
        defer { lock.unlock() }
        return typedPages
    }

    /// `template` rendered with `context` through its stencil, compiling it with `render` on the shape's first page;
    /// nil when the engine must render this page (ineligible template or context, or a template past ``capacity``).
    func render(_ context: ContextLayers, with template: String, engine render: ([String: Any]) throws -> String) rethrows -> String? {
        guard let names = eligible[template] else { return nil }
        var shape = BuildDigest()
        var leaves: [String] = []
        guard ContextShape.walk(context, names: names.allNames, nested: names.nestedNames, printed: names.printed, shape: &shape, leaves: &leaves)
        else {
            return nil
        }
        let key = Key(template: template, shape: shape)
        lock.lock()
        let found = stencils[key]
        let full = (shapes[template] ?? 0) >= Self.capacity
        lock.unlock()
        if let found { return found?.filled(with: leaves) }
        guard !full else { return nil }
        var next = 0
        let rendered = try render(ContextShape.placeholders(context.merged, names: names.all, nested: names.nested, next: &next))
        let stencil = next == leaves.count ? Stencil(rendered: rendered, leafCount: next) : nil
        lock.lock()
        if stencils.updateValue(stencil, forKey: key) == nil { shapes[template, default: 0] += 1 }
        lock.unlock()
        return stencil?.filled(with: leaves)
    }
}

/// A list whose rows a page prints with one partial and nothing else (`{{#posts}}{{> partials/post-row}}{{/posts}}`):
/// each row is rendered through the partial's own stencil and reaches the page as its HTML, so that the page's shape
/// is its list's length, not every row's flags.
///
/// The partial is registered under a wrapper that prints a row's ``htmlKey`` when the row holds ``flagKey`` and renders
/// the partial itself (kept as ``originalName(of:)``) otherwise. A row rendered alone with the page's context under
/// its own keys gives the same bytes as in the page: there swift-mustache looks a name up in the row, then in the page
/// context, which is what the merged context does, provided no other section that pushes a value encloses the list
/// (checked on the context: every enclosing section is a flag) and nothing else is printed between the list's tags.
package struct RowPrerender: Sendable {
    /// The key that says a row arrives as HTML, and the key that holds it.
    package static let flagKey = "__prerendered"
    package static let htmlKey = "__prerenderedHTML"
    /// The two keys the wrapper reads.
    static let wrapperKeys: Set<String> = [flagKey, htmlKey]

    /// The page template, the list key, the row partial.
    let template: String
    let list: String
    let partial: String
    /// The sections open around the list's section in the page template (inverted ones need no check).
    let enclosing: [String]

    /// The name the row partial keeps in the library: not a name a template file can have (a `.mustache` path has no `//`).
    static func originalName(of partial: String) -> String {
        partial + "//original"
    }

    /// The wrapper registered under the partial's name.
    static func wrapper(of partial: String) -> String {
        "{{#\(flagKey)}}{{{\(htmlKey)}}}{{/\(flagKey)}}{{^\(flagKey)}}{{> \(originalName(of: partial))}}{{/\(flagKey)}}"
    }

    /// Registers the wrapper under `partial`, keeping the partial as ``originalName(of:)``; nothing when it is already
    /// wrapped or there is no such template.
    static func wrap(_ partial: String, in library: inout MustacheLibrary) throws {
        guard library.getTemplate(named: originalName(of: partial)) == nil, let original = library.getTemplate(named: partial) else { return }
        let wrapper = try MustacheTemplate(string: HTMLEscaping.pragmaLine + wrapper(of: partial))
        library.register(original, named: originalName(of: partial))
        library.register(wrapper, named: partial)
    }

    /// Every list of the eligible templates whose sections hold one partial tag and white space only, where the
    /// template uses the list's name in no other tag than its sections and inverted sections.
    static func plans(_ sources: [(name: String, text: String)], eligible: [String: StencilNames]) -> [RowPrerender] {
        let texts = Dictionary(sources.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        var plans: [RowPrerender] = []
        for (name, text) in sources where eligible[name] != nil && !text.contains(flagKey) {
            var open: [(sigil: String, name: String)] = []
            var body: [(sigil: String, name: String)] = []
            var found: [String: (partial: String, enclosing: [String])] = [:]
            var refused = Set<String>()
            for tag in TemplateRenderer.tags(in: text) where tag.sigil != "!" {
                let first = tag.name.split(separator: ".").first.map(String.init) ?? tag.name
                switch tag.sigil {
                case "#", "^":
                    if tag.name != first { refused.insert(first) }
                    open.append((tag.sigil, tag.name))
                    body = []
                case "/":
                    guard let top = open.popLast() else { break }
                    if top.sigil == "#" {
                        let partial = body.count == 1 && body[0].sigil == ">" ? body[0].name : nil
                        let enclosing = open.filter { $0.sigil == "#" }.map(\.name)
                        if let partial, eligible[partial] != nil, found[top.name].map({ $0 == (partial, enclosing) }) ?? true {
                            found[top.name] = (partial, enclosing)
                        } else {
                            refused.insert(top.name)
                        }
                    }
                    body = [("/", "")]
                default:
                    if tag.sigil != ">" { refused.insert(first) }
                    body.append((tag.sigil, tag.name))
                }
            }
            // A partial the page includes sees the page's context: one that reads the list would see HTML for rows.
            let included = TemplateRenderer.partialReferences(in: text).reduce(into: Set<String>()) {
                $0.formUnion(TemplateRenderer.partialClosure(of: $1.name, in: texts))
            }
            for partial in included {
                for tag in TemplateRenderer.tags(in: texts[partial] ?? "") {
                    refused.insert(tag.name.split(separator: ".").first.map(String.init) ?? tag.name)
                }
            }
            for (list, plan) in found where !refused.contains(list) && sectionBodiesAreBlank(of: list, in: text) {
                plans.append(RowPrerender(template: name, list: list, partial: plan.partial, enclosing: plan.enclosing))
            }
        }
        return plans.sorted { ($0.template, $0.list) < ($1.template, $1.list) }
    }

    /// Whether every `{{#list}}…{{/list}}` section holds nothing but its partial tag and white space.
    private static func sectionBodiesAreBlank(of list: String, in text: String) -> Bool {
        var index = text.startIndex
        while let open = text[index...].firstMatch(of: #/\{\{#\s*([^}\s]+)\s*\}\}/#) {
            index = open.range.upperBound
            guard open.output.1 == list else { continue }
            guard let close = text[index...].firstMatch(of: #/\{\{\/\s*([^}\s]+)\s*\}\}/#) else { return false }
            let body = String(text[index..<close.range.lowerBound]).replacing(#/\{\{>\s*[^}]+\}\}/#, with: "")
            guard body.allSatisfy(\.isWhitespace) else { return false }
            index = close.range.upperBound
        }
        return true
    }

    /// The list's rows as their HTML, each rendered by `render` with the page's context under the row's own keys, or nil
    /// when a section around the list holds something else than a flag or the list is not one of rows.
    ///
    /// - Parameter names: every name the partial's tags use (``StencilNames/all``), when known: no other key of the page
    ///   can change a row's output, so each row is rendered over only those of the page's keys, gathered once per page.
    func prerendered(_ context: ContextLayers, reading names: [String]?, render: (ContextLayers) throws -> String) rethrows -> [[String: Any]]? {
        for name in enclosing {
            guard let value = context[name], ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(Bool.self) else { return nil }
        }
        guard let value = context[list], ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier([[String: Any]].self),
            let rows = value as? [[String: Any]]
        else { return nil }
        guard !rows.isEmpty else { return [] }
        let page = names.map { [context.restricted(to: $0)] } ?? context.layers
        return try rows.map { row in [Self.flagKey: true, Self.htmlKey: try render(ContextLayers([row] + page))] }
    }
}
