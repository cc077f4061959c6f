import Foundation

/// What a redaction (a takedown) applies to.
public enum RedactionTarget: Sendable, Equatable, Hashable {
    /// One post, by id.
    case post(Int)
    /// Every post whose writer's display name matches this name after normalisation (NFKC, case folding, spaces).
    case writer(String)
    /// Every post of a board, by id.
    case board(Int)

    /// The kind as the store spells it: `post`, `writer` or `board`.
    package var kind: String {
        switch self {
        case .post: "post"
        case .writer: "writer"
        case .board: "board"
        }
    }
}

/// What a redaction does to the posts it applies to.
public enum RedactionMode: String, Sendable, Equatable, CaseIterable {
    /// The post leaves the site; its address shows a tombstone page.
    case remove
    /// The post stays, its writer is shown as anonymous (only for writer redactions).
    case anonymize
}

/// A takedown to record: what, how, and why.
public struct RedactionRequest: Sendable, Equatable {
    public var target: RedactionTarget
    public var mode: RedactionMode
    /// Keep no copy of what the redaction hides in the store (title, body, writer, raw JSON), now or on later crawls.
    public var purge: Bool
    /// Why: shown by `redact --list`. Never published.
    public var reason: String

    public init(target: RedactionTarget, mode: RedactionMode = .remove, purge: Bool = false, reason: String) {
        self.target = target
        self.mode = mode
        self.purge = purge
        self.reason = reason
    }
}

/// A recorded redaction, as `redact --list` shows it.
public struct Redaction: Sendable, Equatable {
    /// The number `redact --undo` takes.
    public var id: Int
    /// What it applies to; a purged writer redaction keeps only a hash of the name, so its name is nil.
    public var kind: String
    /// The post or board id, the writer's normalised name, or nil for a purged writer redaction.
    public var target: String?
    public var mode: RedactionMode
    public var purge: Bool
    public var reason: String
    public var createdAt: Date
    /// When it was lifted, nil while it applies.
    public var undoneAt: Date?
    /// How many archived posts it applies to now (0 once undone).
    public var postCount: Int

    package init(
        id: Int, kind: String, target: String?, mode: RedactionMode, purge: Bool, reason: String, createdAt: Date, undoneAt: Date?, postCount: Int
    ) {
        self.id = id
        self.kind = kind
        self.target = target
        self.mode = mode
        self.purge = purge
        self.reason = reason
        self.createdAt = createdAt
        self.undoneAt = undoneAt
        self.postCount = postCount
    }
}
