import Foundation

/// The markup of an inert link, written into the cmark tree as marker characters and expanded after rendering.
///
/// cmark-gfm's containers differ in what they may hold (a table cell takes text, code, emphasis, links and a few
/// more, but no custom inline node), while a text node fits wherever a link does. So the renderer writes each piece
/// of markup as a text node holding one Unicode noncharacter (U+FDD0…U+FDD3, reserved for a program's internal use),
/// and swaps every marker for its fixed HTML once cmark has rendered the page. Markers in a post's own text are
/// replaced by U+FFFD before parsing, so a post can never produce markup this way.
enum InertLinkMarkup {
    /// Opens a link's label: `<span class="inert-link">`.
    static let openLink = marker(0xFDD0)
    /// Opens an image's description: `<span class="inert-link inert-image">`.
    static let openImage = marker(0xFDD1)
    /// Opens the shown address: ` <span class="link-url">` (with its leading space).
    static let openAddress = marker(0xFDD2)
    /// Closes any of them: `</span>`.
    static let close = marker(0xFDD3)

    /// The noncharacter `value` as a string (Swift rejects noncharacters in `\u{…}` literals).
    static func marker(_ value: UInt32) -> String {
        Unicode.Scalar(value).map { String(Character($0)) } ?? "\u{FFFD}"
    }

    /// Every marker with the HTML it stands for.
    static let markup: [(marker: String, html: String)] = [
        (openLink, "<span class=\"inert-link\">"), (openImage, "<span class=\"inert-link inert-image\">"),
        (openAddress, " <span class=\"link-url\">"), (close, "</span>"),
    ]

    /// `text` with every marker (U+FDD0…U+FDEF, the whole reserved range) replaced by U+FFFD.
    static func withoutMarkers(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isMarker) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isMarker(scalar) ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }

    /// Rendered HTML with every marker expanded to its markup.
    static func expandMarkers(in html: String) -> String {
        markup.reduce(html) { text, pair in text.replacingOccurrences(of: pair.marker, with: pair.html) }
    }

    private static func isMarker(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value)
    }
}
