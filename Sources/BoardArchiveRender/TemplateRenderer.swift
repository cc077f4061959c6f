import BoardArchiveModel
import Foundation
import Mustache

/// Renders page contexts with the site's Mustache templates, compiled once per build.
///
/// Templates are the `*.mustache` files of the templates folder (subfolders included, `assets/` excluded),
/// registered by path without the extension: `layout`, `home`, `board`, `post`, `partials/post-row`, …
/// Loading fails with a ``BuildError`` naming `file:line` for a syntax error, a missing required template or
/// a `{{> partial}}` tag whose template does not exist (swift-mustache would silently render it empty).
///
/// Every page is the page template rendered into `layout` (which prints it with `{{{content}}}`). Both
/// see the same context: the page's keys plus the common keys of ``commonContext(relativeRoot:title:scripts:)``.
package struct TemplateRenderer: Sendable {
    /// The templates every build needs.
    static let requiredTemplates = ["layout", "home", "board", "post", "version", "tombstone", "search", "keyword", "keyword-index"]

    /// The compiled templates.
    let library: MustacheLibrary
    /// Registered template names, sorted.
    let templateNames: [String]
    /// The templates folder, for error locations.
    let directory: URL
    /// Interface strings (`{{s.key}}`).
    let strings: SiteStrings
    /// The build's clock and time zone.
    let clock: ArchiveClock
    /// A digest of every template's name and text: part of every page's digest, so editing a template re-renders.
    package let sourceDigest: BuildDigest
    /// Every template's name and text as its file holds it (without the pragma line).
    let sources: [(name: String, text: String)]
    /// Whether every page asks search engines not to index it (`{{#noindex}}` in the layout); default false.
    package var noindex = false
    /// The stencils of the pages rendered so far, by template and shape (see ``ShapeStencils``).
    let stencils: ShapeStencils
    /// The keys every page of the build shares (``SiteData``), made once.
    let siteContexts = MadeOnce<Bool, [String: Any]>()
    /// The lists of rows each page template receives as the rows' HTML (see ``RowPrerender``).
    var prerenders: [String: [RowPrerender]] = [:]
    /// How typed pages are read into slots (``SlotPlan``), by page template, made once.
    let slotPlans = MadeOnce<String, SlotPlan?>()

    /// Loads, compiles and checks every template under `directory`.
    package static func load(from directory: URL, strings: SiteStrings, clock: ArchiveClock) throws -> TemplateRenderer {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BuildError(phase: .templates, reason: .templatesDirectoryNotFound, location: directory.path)
        }
        let files = try templateFiles(in: directory)
        _ = HTMLEscaping.registered
        var library = MustacheLibrary()
        var sources: [(name: String, text: String)] = []
        for name in files {
            let location = displayPath(directory, name)
            let text: String
            do {
                text = try String(contentsOf: directory.appendingPathComponent(name + ".mustache"), encoding: .utf8)
            } catch {
                throw BuildError(phase: .templates, underlying: error, location: location)
            }
            do {
                // Compiled as written first, so that a syntax error names the line and column of the file.
                var template = try MustacheTemplate(string: HTMLEscaping.pragmaLine + text)
                let folded = foldingStrings(in: text, strings: strings)
                if folded != text { template = try MustacheTemplate(string: HTMLEscaping.pragmaLine + folded) }
                library.register(template, named: name)
            } catch let error as MustacheTemplate.ParserError {
                throw BuildError(
                    phase: .templates, reason: .templateSyntax(describe(error.error)),
                    location: "\(location):\(error.context.lineNumber - 1):\(error.context.columnNumber)")
            } catch {
                throw BuildError(phase: .templates, underlying: error, location: location)
            }
            sources.append((name, text))
        }
        for (name, text) in sources {
            if let line = retiredStringsLine(in: text) {
                throw BuildError(
                    phase: .templates,
                    reason: .templateSyntax("{{t.key}} strings are now {{s.key}}: the search strings joined the one table of interface strings"),
                    location: "\(displayPath(directory, name)):\(line)")
            }
        }
        let names = Set(files)
        for required in requiredTemplates where !names.contains(required) {
            throw BuildError(phase: .templates, reason: .templateNotFound(required), location: displayPath(directory, required))
        }
        for (name, text) in sources {
            for reference in partialReferences(in: text) where !names.contains(reference.name) {
                throw BuildError(
                    phase: .templates, reason: .partialNotFound(reference.name), location: "\(displayPath(directory, name)):\(reference.line)")
            }
        }
        try refusePartialCycles(in: sources, directory: directory)
        // search.js fills in the row the search page holds: without it, every search would fail in the browser.
        if let search = sources.first(where: { $0.name == "search" }),
            !tags(in: search.text).contains(where: { $0.name == SearchRowTemplate.key && ["{", "&"].contains($0.sigil) })
        {
            throw BuildError(
                phase: .templates,
                reason: .templateSyntax(
                    "the search page must print its result row's template raw, {{{\(SearchRowTemplate.key)}}}, inside a <template id=\"search-row\">"),
                location: displayPath(directory, "search"))
        }
        let stringKeys = Set(strings.table.keys)
        for (name, text) in sources {
            if let unknown = TemplateKeys.unknownKey(in: text, strings: stringKeys) {
                throw BuildError(phase: .templates, reason: .unknownKey(unknown.name), location: "\(displayPath(directory, name)):\(unknown.line)")
            }
        }
        try checkAssets(of: sources, in: directory)
        let digest = TemplateSourcesInput(templates: sources.map { TemplateSourceInput(name: $0.name, text: $0.text) }).digest(base: BuildDigest())
        var eligible = stencilEligible(sources)
        let prerenders = RowPrerender.plans(sources, eligible: eligible)
        for partial in Set(prerenders.map(\.partial)) {
            try RowPrerender.wrap(partial, in: &library)
            eligible[RowPrerender.originalName(of: partial)] = eligible[partial]
        }
        if !prerenders.isEmpty {
            // A row's flag and HTML are read wherever the wrapper is included.
            eligible = eligible.mapValues { $0.adding(RowPrerender.wrapperKeys) }
        }
        return TemplateRenderer(
            library: library, templateNames: files, directory: directory, strings: strings, clock: clock, sourceDigest: digest,
            sources: sources, stencils: ShapeStencils(eligible: eligible), prerenders: Dictionary(grouping: prerenders, by: \.template))
    }

    /// Template names (relative paths without `.mustache`) under `directory`, sorted; `assets/` is skipped.
    static func templateFiles(in directory: URL) throws -> [String] {
        let base = directory.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var names: [String] = []
        for case let path as String in enumerator {
            if path == "assets" || path.hasPrefix("assets/") { continue }
            guard path.hasSuffix(".mustache") else { continue }
            names.append(String(path.dropLast(".mustache".count)))
        }
        return names.sorted()
    }

    /// The 1-based line of `index` in `text`: what every template error names with the file.
    static func line(of index: String.Index, in text: String) -> Int {
        text[..<index].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    /// The `{{> name}}` and `{{< name}}` tags of a template with their 1-based line numbers.
    static func partialReferences(in text: String) -> [(name: String, line: Int)] {
        // Any whitespace, line breaks included, may stand around the name: swift-mustache skips it.
        let pattern = #/\{\{\s*[><]\s*([^\s*}][^\s}]*)\s*\}\}/#
        var references: [(name: String, line: Int)] = []
        for match in text.matches(of: pattern) {
            let line = line(of: match.range.lowerBound, in: text)
            references.append((String(match.output.1), line))
        }
        return references
    }

    /// The 1-based line of the first tag that reads the retired `t` table of search strings (`{{t.key}}`, `{{#t}}`),
    /// or nil.
    static func retiredStringsLine(in text: String) -> Int? {
        guard let match = text.firstMatch(of: #/\{\{\{?\s*[#^&\/]?\s*t\s*(\.|\}\})/#) else { return nil }
        return line(of: match.range.lowerBound, in: text)
    }

    /// A readable phrase for swift-mustache's parser errors.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? MustacheTemplate.Error else { return String(describing: error) }
        switch error {
        case .sectionCloseNameIncorrect: return "a closing {{/name}} does not match the open section"
        case .unfinishedName: return "a tag is not closed with }}"
        case .expectedSectionEnd: return "a section is opened but never closed with {{/name}}"
        case .invalidSetDelimiter: return "a set-delimiter tag is malformed"
        case .transformAppliedToInheritanceSection: return "a transform is applied to an inheritance section"
        case .illegalTokenInsideInheritSection: return "an inherit section contains a tag it may not contain"
        case .textInsideInheritSection: return "an inherit section contains text"
        case .invalidConfigVariableSyntax: return "a configuration tag is malformed"
        case .unrecognisedConfigVariable: return "a configuration tag is not recognised"
        @unknown default: return String(describing: error)
        }
    }

    static func displayPath(_ directory: URL, _ name: String) -> String {
        directory.appendingPathComponent(name + ".mustache").path
    }

    /// The keys every page and the layout share.
    ///
    /// - `root`: the relative path from the page to the site root (`""`, `"../"`, `"../../"`); every link
    ///   in a template is written `{{root}}some/file.html`.
    /// - `lang`, `s` (strings), `title` (this page), `timeZone` (IANA id) and `timeZoneOffset` (minutes, fallback),
    ///   `scripts` (extra classic scripts, `[{src}]`, already relative to the page), `noindex` (the site asks search
    ///   engines not to index it; a tombstone sets it too), `boardFeed` (false; board and post pages set their board's feed).
    package func commonContext(relativeRoot: String, title: String, scripts: [String] = []) -> [String: Any] {
        var context = siteContext
        context.merge(headContext(relativeRoot: relativeRoot, title: title, scripts: scripts)) { _, page in page }
        return context
    }

    /// ``commonContext(relativeRoot:title:scripts:)`` with only the keys `template` can read: every name of its tags and
    /// its partials' when it has a stencil (``ShapeStencils``), else all of them. What a context made once a row starts from.
    package func commonContext(readBy template: String, relativeRoot: String, title: String) -> [String: Any] {
        let common = commonContext(relativeRoot: relativeRoot, title: title)
        guard let names = stencils.eligible[template]?.all else { return common }
        return ContextLayers([common]).restricted(to: names)
    }

    /// The keys every page of the build shares (``SiteData``).
    private var siteContext: [String: Any] {
        siteContexts.value(for: noindex) {
            SiteData(
                lang: strings.language.rawValue, s: StringsTable(strings.table), timeZone: clock.timeZone.identifier,
                timeZoneOffset: clock.offsetMinutes, noindex: noindex, boardFeed: nil
            ).context
        }
    }

    /// The keys of one page's head (``PageHeadData``), which override the site's.
    private func headContext(relativeRoot: String, title: String, scripts: [String]) -> [String: Any] {
        PageHeadData(root: relativeRoot, title: title, scripts: scripts.map { ScriptData(src: $0) }).context
    }

    /// The same renderer with `library` for its templates (see ``stencilPlan(rowKeys:pageKeys:)``). The row template,
    /// now the wrapper of ``RowPrerender``, is left to the engine; the keyword page keeps its stencils, reading each
    /// row's flag and HTML (a row that arrives without them is rendered by the row template inside the page).
    package func with(_ library: MustacheLibrary) -> TemplateRenderer {
        var eligible = stencils.eligible.filter { $0.key != StencilPlan.rowTemplate }
        eligible["keyword"] = eligible["keyword"]?.adding(RowPrerender.wrapperKeys)
        return TemplateRenderer(
            library: library, templateNames: templateNames, directory: directory, strings: strings, clock: clock, sourceDigest: sourceDigest,
            sources: sources, noindex: noindex, stencils: ShapeStencils(eligible: eligible),
            prerenders: prerenders.filter { $0.key != "keyword" })
    }

    /// Renders the template `name` with `context`, through its stencil when it has one (``ShapeStencils``); a missing
    /// template is an error, not `nil`.
    package func render(_ context: [String: Any], with name: String) throws -> String {
        try render(ContextLayers([context]), with: name)
    }

    /// Renders the template `name` with the layers of `context` (a name's value is the first layer's that holds it).
    package func render(_ context: ContextLayers, with name: String) throws -> String {
        var context = context
        for plan in prerenders[name] ?? [] {
            let original = RowPrerender.originalName(of: plan.partial)
            let names = stencils.eligible[original]?.all
            if let rows = try plan.prerendered(context, reading: names, render: { try render($0, with: original) }) {
                context = ContextLayers([[plan.list: rows]] + context.layers)
            }
        }
        if let html = try stencils.render(context, with: name, engine: { try renderWithEngine($0, with: name) }) { return html }
        return try renderWithEngine(context.merged, with: name)
    }

    /// Renders the template `name` with `context` through swift-mustache.
    func renderWithEngine(_ context: [String: Any], with name: String) throws -> String {
        guard let html = library.render(context, withTemplate: name) else {
            throw BuildError(phase: .render, reason: .templateNotFound(name), location: Self.displayPath(directory, name))
        }
        return html
    }

    /// Renders a whole page: `template` with the common keys plus `context`, placed into `layout`.
    ///
    /// - Parameters:
    ///   - template: the page template's name, such as `board` or `search`.
    ///   - context: the page's own keys; they override common keys of the same name.
    ///   - relativeRoot: the path from the page to the site root, `""` for a top-level page, `"../"` one folder down.
    ///   - title: the page title (the layout appends the site title).
    ///   - scripts: extra classic scripts for this page, relative to the page (`"assets/search.js"` on `search.html`).
    package func renderPage(template: String, context: [String: Any], relativeRoot: String, title: String, scripts: [String] = []) throws -> String {
        // The page's keys over the head's over the site's, read as layers (``ContextLayers``): nothing is copied.
        let (head, site) = (headContext(relativeRoot: relativeRoot, title: title, scripts: scripts), siteContext)
        let content = try render(ContextLayers([context, head, site]), with: template)
        return try render(ContextLayers([["content": content], context, head, site]), with: "layout")  // RenderedPageData's one key
    }
}

extension TemplateRenderer {
    /// ``renderPage(template:context:relativeRoot:title:scripts:)`` for a typed page: its value read straight into the
    /// slots of its stencils (``SlotPlan``) when the page template and the layout have a stencil of the page's shapes,
    /// else its context through the layers (which makes the stencils of a shape's first page).
    package func renderPage<Page: TemplateData>(template: String, data: Page, relativeRoot: String, title: String, scripts: [String] = [])
        throws -> String
    {
        let head = PageHeadData(root: relativeRoot, title: title, scripts: scripts.map { ScriptData(src: $0) })
        if let html = typedPage(template: template, data: data, head: head) { return html }
        return try renderPage(template: template, context: data.context, relativeRoot: relativeRoot, title: title, scripts: scripts)
    }

    /// The page through its slots, or nil.
    private func typedPage<Page: TemplateData>(template: String, data: Page, head: PageHeadData) -> String? {
        let site = siteContext
        let planKey = noindex ? template + "\n" : template
        let plan = slotPlans.value(for: planKey) {
            SlotPlan(
                page: stencils.eligible[template], layout: stencils.eligible["layout"], prerendered: Set((prerenders[template] ?? []).map(\.list)),
                layoutPrerenders: prerenders["layout"] != nil, site: site)
        }
        guard let plan else { return nil }
        let encoder = SlotEncoder(names: plan.all, nested: plan.nested, prerendered: plan.prerendered)
        encoder.encode(data)
        encoder.underEarlier = true
        encoder.encode(head)
        guard !encoder.failed else { return nil }
        var slots = encoder.slots
        for (index, slot) in plan.site.enumerated() where slot != nil && slots[index] == nil { slots[index] = slot }
        // The layers the same page would be rendered from: what the first page of each shape is checked against.
        let layers = { ContextLayers([data.context, head.context, site]) }
        var shape = BuildDigest()
        var leaves: [String] = []
        guard plan.read(slots, as: plan.page, shape: &shape, leaves: &leaves),
            let page = stencils.typedStencil(template, shape: shape, plan: planKey, check: { Self.walks(layers(), plan.page, to: shape, leaves) })
        else { return nil }
        let content = page.filled(with: leaves)
        shape = BuildDigest()
        leaves.removeAll(keepingCapacity: true)
        guard plan.read(slots, as: plan.layout, content: content, shape: &shape, leaves: &leaves),
            let layout = stencils.typedStencil(
                "layout", shape: shape, plan: planKey,
                check: { Self.walks(ContextLayers([["content": content]] + layers().layers), plan.layout, to: shape, leaves) })
        else { return nil }
        stencils.countTypedPage()
        return layout.filled(with: leaves)
    }

    /// Whether `layers` walked for `reading`'s template give `shape` and `leaves`. A slot table that reads otherwise is a
    /// fault of ``SlotEncoder``: debug builds stop on it; release builds render the page from its layers.
    private static func walks(_ layers: ContextLayers, _ reading: SlotPlan.Reading, to shape: BuildDigest, _ leaves: [String]) -> Bool {
        var walked = BuildDigest()
        var walkedLeaves: [String] = []
        let names = reading.names
        let same =
            ContextShape.walk(layers, names: names.allNames, nested: names.nestedNames, printed: names.printed, shape: &walked, leaves: &walkedLeaves)
            && walked == shape && walkedLeaves == leaves
        assert(same, "a typed page's slots read otherwise than its layers")
        return same
    }
}

/// Values made once per key and kept, shared by every rendering thread: the site's context per `noindex` setting, the
/// slot plans per page template. Unchecked: its one dictionary is read and written under the lock.
final class MadeOnce<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [Key: Value] = [:]

    /// The value for `key`, made by `make` the first time.
    func value(for key: Key, make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value = made[key] { return value }
        let value = make()
        made[key] = value
        return value
    }
}
