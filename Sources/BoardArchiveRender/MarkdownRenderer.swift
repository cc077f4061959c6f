import CCmarkGFM
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders post bodies (GitHub-flavoured Markdown) to safe, offline HTML with cmark-gfm.
///
/// Extensions: `table`, `strikethrough`, `autolink`, `tagfilter`, `tasklist`. Options: `CMARK_OPT_HARDBREAKS`
/// (plain-text posts keep their line breaks), `CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES` (valid HTML) and never `CMARK_OPT_UNSAFE`, so raw HTML in a post becomes
/// `<!-- raw HTML omitted -->` and cmark drops `javascript:`, `vbscript:`, `file:` and most `data:` URLs.
///
/// On top of that, with the default ``LinkPolicy/inert`` every link and image in a body is turned into
/// plain text (`<span class="inert-link">label</span>` followed by the web address in `<span class="link-url">`
/// when it is `http`, `https` or `mailto`): an archive promises to work offline and to load nothing from the
/// network, so no `href`/`src` in a body ever points outside the site.
///
/// The renderer is stateless and safe to use from many tasks at once: see ``inlineParsing`` for the one
/// step that cmark-gfm cannot run concurrently.
package struct MarkdownRenderer: Sendable {
    /// What happens to the links and images of a body.
    package enum LinkPolicy: Sendable, Equatable {
        /// Links and images become text; safe web addresses are shown next to their label.
        case inert
        /// cmark-gfm's own rendering (dangerous schemes already dropped); used to verify cmark's behaviour.
        case keep
    }

    /// The link policy; ``LinkPolicy/inert`` unless a test asks otherwise.
    var linkPolicy: LinkPolicy = .inert

    /// The extensions attached to every parser, in a fixed order.
    static let extensionNames = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]

    /// `CMARK_OPT_HARDBREAKS`, and `CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES` (table cells aligned with
    /// `style="text-align: …"`, not the obsolete `align` attribute the Nu HTML Checker rejects); deliberately without
    /// `CMARK_OPT_UNSAFE`.
    static let options: Int32 = CMARK_OPT_HARDBREAKS | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES

    /// Registers the core extensions exactly once per process (Swift runs `static let` initialisers once, thread-safely).
    private static let registration: Bool = {
        cmark_gfm_core_extensions_ensure_registered()
        return true
    }()

    /// Serialises `cmark_parser_finish`, the step that parses inlines.
    ///
    /// cmark-gfm keeps the special inline characters of its extensions (`~` for strikethrough, `:` and `w` for
    /// autolinks) in one process-wide table: every parse adds them when its inline pass starts and clears them
    /// when it ends. Two parses at once therefore lose `~~strike~~` and autolinks at random (seen as 1 render in
    /// 10 differing under 8 concurrent tasks), so the inline pass runs under this lock; feeding (block parsing),
    /// link neutralising and HTML rendering stay parallel.
    private static let inlineParsing = NSLock()

    /// Creates a renderer, registering cmark-gfm's core extensions on first use.
    package init(linkPolicy: LinkPolicy = .inert) {
        precondition(Self.registration)
        self.linkPolicy = linkPolicy
    }

    /// The limits a body must stay within to be parsed as Markdown.
    package var budget = MarkdownBudget()

    /// A body rendered: its HTML, and why it was rendered as plain text instead of Markdown, if it was.
    package struct RenderedBody: Sendable, Equatable {
        package var html: String
        package var plainTextBecause: MarkdownBudget.Excess?
    }

    /// Renders `markdown` to an HTML fragment (plain text when it is over ``budget``).
    package func render(_ markdown: String) -> String {
        renderBody(markdown).html
    }

    /// Renders `markdown` to an HTML fragment: as Markdown when it is within ``budget``, else as escaped plain text
    /// (``PlainTextBody``) with the reason, so that no body costs cmark-gfm more than a bounded time per byte.
    package func renderBody(_ markdown: String) -> RenderedBody {
        if let excess = budget.excess(of: markdown) { return RenderedBody(html: PlainTextBody.html(markdown), plainTextBecause: excess) }
        return RenderedBody(html: renderMarkdown(markdown), plainTextBecause: nil)
    }

    /// Renders `markdown` with cmark-gfm, whatever its shape.
    func renderMarkdown(_ markdown: String) -> String {
        guard let parser = cmark_parser_new(Self.options) else { return "" }
        defer { cmark_parser_free(parser) }
        for name in Self.extensionNames {
            if let syntaxExtension = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, syntaxExtension)
            }
        }
        var source = InertLinkMarkup.withoutMarkers(markdown)
        source.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
        }
        let finished = Self.inlineParsing.withLock { cmark_parser_finish(parser) }
        guard let document = finished else { return "" }
        defer { cmark_node_free(document) }
        let neutralised = linkPolicy == .inert && Self.neutraliseLinks(in: document)
        guard let html = cmark_render_html(document, Self.options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(html) }
        return neutralised ? InertLinkMarkup.expandMarkers(in: String(cString: html)) : String(cString: html)
    }

    /// Replaces every link and image node under `document` with inert text; returns whether there was any.
    private static func neutraliseLinks(in document: OpaquePointer) -> Bool {
        var targets: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return false }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE { targets.append(node) }
        }
        cmark_iter_free(iterator)
        // Innermost first: an image inside a link is replaced before the link moves its children.
        for node in targets.reversed() { replaceWithText(node) }
        return !targets.isEmpty
    }

    /// Replaces a link or image by its children between marker text nodes (see ``InertLinkMarkup``), then the address
    /// when safe, and drops the node.
    ///
    /// Only text nodes and the link's own children are inserted, since those fit in every container a link can be
    /// in: a GFM table cell, for one, cannot hold a custom inline node, and inserting one there fails (the label and
    /// address were lost that way).
    private static func replaceWithText(_ node: OpaquePointer) {
        let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
        let isImage = cmark_node_get_type(node) == CMARK_NODE_IMAGE
        if displayableAddress(url) == nil, isAutolink(node, to: url) {
            // `<javascript:…>`: the label is the dangerous address itself, so nothing of it is kept.
            cmark_node_unlink(node)
            cmark_node_free(node)
            return
        }
        insertText(isImage ? InertLinkMarkup.openImage : InertLinkMarkup.openLink, before: node)
        var labelText = ""
        while let child = cmark_node_first_child(node) {
            if cmark_node_get_type(child) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(child) {
                labelText += String(cString: literal)
            }
            cmark_node_unlink(child)
            if cmark_node_insert_before(node, child) == 0 {
                // Never expected (the child was inline in the same container), but keep its text rather than lose it.
                if let literal = cmark_node_get_literal(child) { insertText(String(cString: literal), before: node) }
                cmark_node_free(child)
            }
        }
        insertText(InertLinkMarkup.close, before: node)
        if let shown = displayableAddress(url), !isSameAddress(shown, labelText) {
            insertText(InertLinkMarkup.openAddress, before: node)
            insertText(shown, before: node)
            insertText(InertLinkMarkup.close, before: node)
        }
        cmark_node_unlink(node)
        cmark_node_free(node)
    }

    /// Inserts a text node with `literal` before `node` (text fits wherever an inline does).
    private static func insertText(_ literal: String, before node: OpaquePointer) {
        guard let text = cmark_node_new(CMARK_NODE_TEXT) else { return }
        cmark_node_set_literal(text, literal)
        if cmark_node_insert_before(node, text) == 0 { cmark_node_free(text) }
    }

    /// Whether a link's only child is its own address (`<javascript:…>`): such a label is dropped with the link.
    private static func isAutolink(_ node: OpaquePointer, to url: String) -> Bool {
        guard let child = cmark_node_first_child(node), cmark_node_next(child) == nil, cmark_node_get_type(child) == CMARK_NODE_TEXT,
            let literal = cmark_node_get_literal(child)
        else { return false }
        return String(cString: literal) == url
    }

    /// The address to show as text: only `http`, `https` and `mailto` addresses without control characters.
    static func displayableAddress(_ url: String) -> String? {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("mailto:") else { return nil }
        guard !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return url
    }

    /// Whether the label already spells the address (autolinks), so it need not be repeated.
    private static func isSameAddress(_ url: String, _ label: String) -> Bool {
        url == label || url == "http://" + label || url == "https://" + label || url == "mailto:" + label
    }
}
