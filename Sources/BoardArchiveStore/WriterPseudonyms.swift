import BoardArchiveModel
import Crypto
import Foundation

/// Stable pseudonyms for writers (`build --pseudonymize-writers`), for archives that must not name anyone.
///
/// A writer's pseudonym is a label followed by the first 40 bits of HMAC-SHA256(key, normalised name) in hex, such as
/// `작성자 3fa9c2e01b`: the same writer gets the same pseudonym on every build made with the same key, and without the
/// key the names cannot be recovered from the pseudonyms by trying likely names. Names are normalised as redactions
/// compare them (NFKC, case folding, spaces), so one writer spelled two ways gets one pseudonym.
public struct WriterPseudonyms: Sendable {
    /// The shortest key accepted, in bytes.
    public static let minimumKeyBytes = 16

    private let key: SymmetricKey
    /// The word before the code: "작성자" / "Writer" (from the site's strings).
    let label: String
    /// A digest of the key (never the key), so that a build with another key renders every page again.
    package let fingerprint: String

    /// Pseudonyms under `key`; nil when the key is shorter than ``minimumKeyBytes``.
    public init?(key: Data, label: String) {
        guard key.count >= Self.minimumKeyBytes else { return nil }
        self.key = SymmetricKey(data: key)
        self.label = label
        let check = HMAC<SHA256>.authenticationCode(for: Data("boardarchive pseudonym key fingerprint".utf8), using: self.key)
        fingerprint = Data(check).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The pseudonym of the writer named `name`.
    public func pseudonym(for name: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(RedactionRules.writerKey(name).utf8), using: key)
        return label + " " + Data(code).prefix(5).map { String(format: "%02x", $0) }.joined()
    }

    /// `post` with its writer replaced by the pseudonym (anonymous posts stay anonymous; no address, no image).
    func apply(to post: inout Post) {
        let name = post.writer.displayName
        post.writer = Writer(displayName: name.isEmpty ? "" : pseudonym(for: name))
    }
}
