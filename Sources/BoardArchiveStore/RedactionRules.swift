import BoardArchiveModel
import Foundation

/// The redactions in force, indexed for matching posts as they are written (by a crawl) or re-checked (by
/// `redact` and `redact --undo`).
struct RedactionRules {
    /// One redaction in force.
    struct Rule {
        var id: Int
        var mode: RedactionMode
        var purge: Bool
        var createdAt: Double
    }

    /// How much of a post the store keeps: everything, everything but the writer, or only ids and dates.
    enum PurgeLevel: Int {
        case none = 0
        case writer = 1
        case all = 2
    }

    /// What applies to one post: the redaction that decides (remove beats anonymize; the oldest wins a tie) and how
    /// much the store may keep of it.
    struct Verdict: Equatable {
        var id: Int
        var mode: RedactionMode
        var createdAt: Double
        var purge: PurgeLevel
    }

    private(set) var posts: [Int: [Rule]] = [:]
    private(set) var boards: [Int: [Rule]] = [:]
    /// By normalised name, or by ``hashedWriterKey(_:)`` for purged writer redactions.
    private(set) var writers: [String: [Rule]] = [:]

    /// Whether no redaction is in force (the crawl's common case: nothing to match).
    var isEmpty: Bool { posts.isEmpty && boards.isEmpty && writers.isEmpty }

    /// The redactions in force in the store.
    static func load(_ db: any StoreTransaction) throws -> RedactionRules {
        var rules = RedactionRules()
        let rows = try db.rows("SELECT redactionId, kind, target, mode, purge, createdAt FROM redaction WHERE undoneAt IS NULL ORDER BY redactionId")
        for row in rows {
            let rule = Rule(
                id: row[0].int ?? 0, mode: RedactionMode(rawValue: row[3].string ?? "") ?? .remove, purge: row[4].int == 1,
                createdAt: row[5].double ?? 0)
            let target = row[2].string ?? ""
            switch row[1].string {
            case "post": if let id = Int(target) { rules.posts[id, default: []].append(rule) }
            case "board": if let id = Int(target) { rules.boards[id, default: []].append(rule) }
            default: rules.writers[target, default: []].append(rule)
            }
        }
        return rules
    }

    /// A writer's name as redactions compare it: NFKC, case-folded, words separated by single spaces.
    static func writerKey(_ name: String) -> String {
        TextNormalizer.normalizedQueryWords(name).joined(separator: " ")
    }

    /// What a purged writer redaction stores instead of the name: a hash of its normalised form, so the store keeps
    /// no byte of the name and still recognises it when a crawl serves it again.
    static func hashedWriterKey(_ key: String) -> String {
        "#" + ContentHash.hex(of: "writer\u{1F}" + key)
    }

    /// The writer rules that match `name`.
    func writerRules(_ name: String) -> [Rule] {
        guard !writers.isEmpty, !name.isEmpty else { return [] }
        let key = Self.writerKey(name)
        guard !key.isEmpty else { return [] }
        return (writers[key] ?? []) + (writers[Self.hashedWriterKey(key)] ?? [])
    }

    /// What applies to a post with these ids and writer name, or nil when no redaction does. `earlierWriters`: the names
    /// the post had before (its stored row's, its earlier versions'): a writer's takedown covers every version, so a
    /// post whose writer was renamed at the source stays under the rule its earlier name matches.
    func verdict(postId: Int, boardId: Int, writerName: String, earlierWriters: [String] = []) -> Verdict? {
        guard !isEmpty else { return nil }
        let writers = Set([writerName] + earlierWriters).sorted().flatMap { writerRules($0) }
        let matched = (posts[postId] ?? []) + (boards[boardId] ?? []) + writers
        guard !matched.isEmpty else { return nil }
        let mode: RedactionMode = matched.contains { $0.mode == .remove } ? .remove : .anonymize
        guard let decisive = matched.filter({ $0.mode == mode }).min(by: { $0.id < $1.id }) else { return nil }
        var purge = PurgeLevel.none
        for rule in matched where rule.purge { purge = rule.mode == .remove ? .all : max(purge, .writer) }
        return Verdict(id: decisive.id, mode: mode, createdAt: decisive.createdAt, purge: purge)
    }
}

extension RedactionRules.PurgeLevel: Comparable {
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
