import Foundation

/// An error raised while recording or lifting a redaction.
public struct RedactionError: Error, Equatable, Sendable, LocalizedError {
    public enum Reason: Equatable, Sendable {
        /// `--post` names a post the store does not hold.
        case unknownPost(Int)
        /// `--board` names a board the store does not hold.
        case unknownBoard(Int)
        /// `--writer` matches no archived post.
        case unknownWriter(String)
        /// `--mode anonymize` on a post or board redaction.
        case anonymizeNeedsWriter
        /// `--undo` names no redaction.
        case unknownRedaction(Int)
        /// `--undo` names a redaction already lifted.
        case alreadyUndone(Int)
        /// An empty or blank `--reason`.
        case missingReason
    }

    /// The store file.
    public var location: String
    public var reason: Reason

    public init(location: String, reason: Reason) {
        self.location = location
        self.reason = reason
    }

    public var errorDescription: String? {
        switch reason {
        case .unknownPost(let id):
            "The archive store \(location) holds no post \(id); check the id in the post's address (posts/<id>.html)."
        case .unknownBoard(let id):
            "The archive store \(location) holds no board \(id); check the id in the board's address (boards/<id>/index.html)."
        case .unknownWriter(let name):
            "No post in the archive store \(location) has a writer named \"\(name)\" (compared after normalisation); check the spelling."
        case .anonymizeNeedsWriter:
            "--mode anonymize applies only to --writer redactions; use --mode remove (the default) for a post or a board."
        case .unknownRedaction(let id):
            "The archive store \(location) has no redaction \(id); run boardarchive redact --list to see their numbers."
        case .alreadyUndone(let id):
            "Redaction \(id) in the archive store \(location) was already undone; run boardarchive redact --list to see what applies."
        case .missingReason:
            "A redaction needs a reason (--reason TEXT), kept in the store for --list; it is never published."
        }
    }
}
