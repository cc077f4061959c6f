import Foundation

/// What one output file is made from, as a value: the file's digest is derived from the value's encoding
/// (``DigestEncoder``), so a field added to an input is part of its files' digests by construction, and a test changes
/// each field of each kind in turn and sees the digest change (`PageInputTests`).
///
/// Inputs hold keys, never rows: ids, content hashes (which cover every field the API sent), names, "today" flags and
/// the pager, so that every digest is made without reading a post.
package protocol PageInput: Codable {
    /// The kind of file (`post`, `board`, …): two kinds whose values encode alike still differ.
    static var kind: String { get }
}

extension PageInput {
    /// The file's digest: the build's shared inputs (`base`: templates, strings, settings), the kind, then the value.
    package func digest(base: BuildDigest) -> BuildDigest {
        var start = base
        start.add(Self.kind)
        return DigestEncoder.digest(of: self, base: start)
    }
}
