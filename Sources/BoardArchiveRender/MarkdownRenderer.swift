import BoardArchiveModel
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

    /// The kept pictures a body may show, by the address its text writes, and the way from the page to the site's root.
    ///
    /// A Markdown image, or an HTML `<img>` tag, whose address is here becomes the site's copy of the picture, with its
    /// alt text, intrinsic size and lazy loading; every other image stays inert text with its address, as before.
    package struct Pictures: Sendable {
        var images: [String: PublishedImage]
        /// Put before each picture's site path: `../` from a post page, the site's address in a feed.
        var root: String

        package init(_ images: [PublishedImage], root: String) {
            self.images = Dictionary(images.map { ($0.address, $0) }, uniquingKeysWith: { first, _ in first })
            self.root = root
        }

        /// No pictures: every image is inert text.
        package static let none = Pictures([], root: "")

        /// The `<img>` of `image` with `alt` (escaped).
        func html(_ image: PublishedImage, alt: String) -> String {
            let source = HTMLEscaping.escape(root + SitePaths.media(image))
            return "<img src=\"\(source)\" alt=\"\(HTMLEscaping.escape(alt))\" width=\"\(image.width)\" height=\"\(image.height)\" "
                + "loading=\"lazy\" decoding=\"async\">"
        }
    }

    /// Renders `markdown` to an HTML fragment (plain text when it is over ``budget``).
    package func render(_ markdown: String, pictures: Pictures = .none) -> String {
        renderBody(markdown, pictures: pictures).html
    }

    /// Renders `markdown` to an HTML fragment: as Markdown when it is within ``budget``, else as escaped plain text
    /// (``PlainTextBody``) with the reason, so that no body costs cmark-gfm more than a bounded time per byte.
    package func renderBody(_ markdown: String, pictures: Pictures = .none) -> RenderedBody {
        if let excess = budget.excess(of: markdown) { return RenderedBody(html: PlainTextBody.html(markdown), plainTextBecause: excess) }
        return RenderedBody(html: renderMarkdown(markdown, pictures: pictures), plainTextBecause: nil)
    }

    /// The addresses of the pictures `markdown` shows, in order, each once: Markdown images and the `src` of `<img>` tags
    /// in its raw HTML, as written, when web (`http`, `https`) or relative addresses. The crawl keeps these; the pages
    /// show the kept ones through ``Pictures``. A body over ``budget`` is shown as plain text, so it shows none.
    package func pictureAddresses(in markdown: String) -> [String] {
        guard Self.mayShowPictures(markdown), budget.excess(of: markdown) == nil else { return [] }
        guard let (parser, document) = parse(markdown) else { return [] }
        defer {
            cmark_node_free(document)
            cmark_parser_free(parser)
        }
        var addresses: [String] = []
        var seen = Set<String>()
        func add(_ address: String) {
            if Self.isFetchable(address), seen.insert(address).inserted { addresses.append(address) }
        }
        Self.forEachNode(under: document) { node in
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_IMAGE {
                add(cmark_node_get_url(node).map { String(cString: $0) } ?? "")
            } else if type == CMARK_NODE_HTML_INLINE || type == CMARK_NODE_HTML_BLOCK, let literal = cmark_node_get_literal(node) {
                for tag in HTMLImageTag.all(in: String(cString: literal)) { add(tag.source) }
            }
        }
        return addresses
    }

    /// Whether `markdown` holds `&#` (a numeric character reference), read from its UTF-8 without copying it.
    static func hasCharacterReference(_ markdown: String) -> Bool {
        var text = markdown
        // Each `&` found with the C library's `memchr`, which reads many bytes at a time (this runs on every body a
        // build renders).
        return text.withUTF8 { bytes in
            guard bytes.count >= 2, let base = bytes.baseAddress else { return false }
            var offset = 0
            while offset < bytes.count - 1, let found = memchr(base + offset, 0x26, bytes.count - 1 - offset) {
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if bytes[index + 1] == 0x23 { return true }
                offset = index + 1
            }
            return false
        }
    }

    /// Whether a body may show a picture at all (`![` or `<img`, any case): the others are not parsed to find out.
    static func mayShowPictures(_ markdown: String) -> Bool {
        var text = markdown
        return text.withUTF8 { bytes in
            guard bytes.count >= 2 else { return false }
            for index in 0..<(bytes.count - 1) {
                if bytes[index] == 0x21, bytes[index + 1] == 0x5B { return true }
                if bytes[index] == 0x3C, index + 3 < bytes.count, bytes[index + 1] | 0x20 == 0x69, bytes[index + 2] | 0x20 == 0x6D,
                    bytes[index + 3] | 0x20 == 0x67
                {
                    return true
                }
            }
            return false
        }
    }

    /// The longest picture address fetched, in bytes.
    static let maxAddressBytes = 2_000

    /// Whether an address can be fetched: `http`, `https`, or relative (no scheme), not empty, at most
    /// ``maxAddressBytes``.
    static func isFetchable(_ address: String) -> Bool {
        // A longer address stays text: no image server needs one, and stores index addresses (PostgreSQL's index entries
        // hold at most about 2.7 kB).
        guard address.utf8.count <= maxAddressBytes else { return false }
        let trimmed = address.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return false }
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return true }
        // A scheme is letters, digits, `+`, `-`, `.` before the first `:` that comes before any `/`, `?` or `#`.
        if let colon = lowered.firstIndex(of: ":") {
            let head = lowered[..<colon]
            if !head.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { return false }
        }
        return true
    }

    /// Parses `markdown` (markers neutralised) with the extensions; the caller frees both.
    private func parse(_ markdown: String) -> (parser: OpaquePointer, document: OpaquePointer)? {
        guard let parser = cmark_parser_new(Self.options) else { return nil }
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
        guard let document = finished else {
            cmark_parser_free(parser)
            return nil
        }
        return (parser, document)
    }

    /// Renders `markdown` with cmark-gfm, whatever its shape.
    func renderMarkdown(_ markdown: String, pictures: Pictures = .none) -> String {
        guard let (parser, document) = parse(markdown) else { return "" }
        defer {
            cmark_node_free(document)
            cmark_parser_free(parser)
        }
        var pictureHTML: [String] = []
        // A numeric character reference (`&#…;`) is the one way a body's text can hold a marker after parsing.
        let entities = Self.hasCharacterReference(markdown)
        let neutralised =
            linkPolicy == .inert && Self.neutraliseLinks(in: document, pictures: pictures, entitiesMayForgeMarkers: entities, html: &pictureHTML)
        guard let html = cmark_render_html(document, Self.options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(html) }
        return neutralised ? InertLinkMarkup.expandMarkers(in: String(cString: html), pictures: pictureHTML) : String(cString: html)
    }

    /// Replaces every link and image node under `document` with inert text, and each image `pictures` holds (Markdown or
    /// an HTML `<img>`) with a marker for its `<img>`, appended to `html`; returns whether there was any.
    private static func neutraliseLinks(
        in document: OpaquePointer, pictures: Pictures, entitiesMayForgeMarkers: Bool, html: inout [String]
    ) -> Bool {
        var targets: [OpaquePointer] = []
        forEachNode(under: document) { node in
            let type = cmark_node_get_type(node)
            if entitiesMayForgeMarkers, type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE || type == CMARK_NODE_CODE_BLOCK,
                let literal = cmark_node_get_literal(node)
            {
                // `&#xFDD4;` decodes to a marker after the source's markers were replaced: replaced again here.
                let text = String(cString: literal)
                let clean = InertLinkMarkup.withoutMarkers(text)
                if clean != text { cmark_node_set_literal(node, clean) }
            }
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE { targets.append(node) }
            if !pictures.images.isEmpty, type == CMARK_NODE_HTML_INLINE || type == CMARK_NODE_HTML_BLOCK { targets.append(node) }
        }
        // Innermost first: an image inside a link is replaced before the link moves its children.
        var changed = false
        for node in targets.reversed() {
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_LINK {
                replaceWithText(node)
                changed = true
            } else if type == CMARK_NODE_IMAGE {
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                if let image = pictures.images[url] {
                    insertText(pictureMarker(html.count), before: node)
                    html.append(pictures.html(image, alt: plainText(of: node)))
                    cmark_node_unlink(node)
                    cmark_node_free(node)
                } else {
                    replaceWithText(node)
                }
                changed = true
            } else if let literal = cmark_node_get_literal(node) {
                let kept = HTMLImageTag.all(in: String(cString: literal)).compactMap { tag in pictures.images[tag.source].map { (tag, $0) } }
                guard !kept.isEmpty else { continue }
                changed = true
                if type == CMARK_NODE_HTML_INLINE {
                    // The tag itself is left out (raw HTML is never published); its pictures take its place.
                    for (tag, image) in kept {
                        insertText(pictureMarker(html.count), before: node)
                        html.append(pictures.html(image, alt: tag.alt ?? ""))
                    }
                    cmark_node_unlink(node)
                    cmark_node_free(node)
                } else if let paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH) {
                    // An HTML block stays omitted, with its pictures in a paragraph before it.
                    for (tag, image) in kept {
                        if let text = cmark_node_new(CMARK_NODE_TEXT) {
                            cmark_node_set_literal(text, pictureMarker(html.count))
                            if cmark_node_append_child(paragraph, text) == 0 { cmark_node_free(text) }
                        }
                        html.append(pictures.html(image, alt: tag.alt ?? ""))
                    }
                    if cmark_node_insert_before(node, paragraph) == 0 { cmark_node_free(paragraph) }
                }
            }
        }
        return changed
    }

    /// The marker text of picture `index` (see ``InertLinkMarkup/picture``).
    private static func pictureMarker(_ index: Int) -> String {
        InertLinkMarkup.picture + String(index) + InertLinkMarkup.picture
    }

    /// The text of a node's descendants (an image's alt text, as cmark-gfm renders it).
    private static func plainText(of node: OpaquePointer) -> String {
        var text = ""
        forEachNode(under: node) { child in
            let type = cmark_node_get_type(child)
            if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE, let literal = cmark_node_get_literal(child) { text += String(cString: literal) }
            if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK { text += " " }
        }
        return text
    }

    /// Calls `body` with `root` and every node under it, in document order, as the walk enters each. `body` may change a
    /// node's literal but not the tree.
    private static func forEachNode(under root: OpaquePointer, _ body: (OpaquePointer) -> Void) {
        guard let iterator = cmark_iter_new(root) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) { body(node) }
        }
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
