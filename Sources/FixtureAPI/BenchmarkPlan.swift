/// The skeleton of a benchmark archive: for each post (oldest first), its board, date, kind and parent, decided before
/// any text is written.
///
/// Deciding these first lets a parent's `hasReply` be known when the parent is written, and lets the text of each post
/// be generated on its own (in any order, on any core) from a generator seeded by the post's index.
struct BenchmarkPlan: Sendable {
    /// What a post is.
    enum Kind: UInt8, Sendable {
        case normal, notice, reply
    }

    /// The fraction of posts that go to the first (largest) board.
    static let largestBoardShare = 0.55
    static let noticeRate = 0.01
    static let replyRate = 0.10
    static let anonymousRate = 0.05
    /// How far back the archive reaches: five years.
    static let span: Int64 = 5 * 365 * 86_400
    /// How many recent posts of a board a reply may answer.
    static let replyWindow = 400

    /// Each post's board, as an index into the archive's boards.
    private(set) var board: [Int32]
    /// Each post's `createdDateTime`, in seconds since 1970; never decreasing.
    private(set) var created: [Int64]
    private(set) var kind: [Kind]
    private(set) var anonymous: [Bool]
    /// The index of the post a reply answers, or -1.
    private(set) var parent: [Int32]
    /// Whether some later post answers this one.
    private(set) var hasReply: [Bool]

    /// Plans `posts` posts over `boards` boards, the newest a minute before `now`.
    ///
    /// The oldest post is five years before `now`. Posts get denser towards the present (a board grows), and the newest
    /// 0.1 % (at least 3) fall in the two hours before `now`, so an archive always has posts from "today".
    init(posts count: Int, boards boardCount: Int, seed: UInt64, now: Int64) {
        var random = SeededRandom(seed: seed, key: "plan", index: count)
        let weights = Self.boardWeights(boardCount)
        board = []
        created = []
        kind = []
        anonymous = []
        parent = []
        hasReply = Array(repeating: false, count: count)
        board.reserveCapacity(count)
        created.reserveCapacity(count)
        kind.reserveCapacity(count)
        anonymous.reserveCapacity(count)
        parent.reserveCapacity(count)
        var recent = Array(repeating: [Int32](), count: boardCount)
        let recentCount = count < 1_000 ? min(count, 3) : count / 1_000
        let oldCount = count - recentCount
        let oldEnd = now - 2 * 3_600
        let oldStart = now - Self.span
        for index in 0..<count {
            let boardIndex = Self.pick(weights, &random)
            board.append(Int32(boardIndex))
            if index < oldCount {
                // Time runs as the square root of the post's position: more posts per day as the years go by.
                let position = Double(index) / Double(max(1, oldCount))
                created.append(oldStart + Int64(Double(oldEnd - oldStart) * position.squareRoot()))
            } else {
                let position = Double(index - oldCount + 1) / Double(recentCount)
                created.append(oldEnd + Int64(Double(2 * 3_600 - 60) * position))
            }
            anonymous.append(random.chance(Self.anonymousRate))
            var postKind = Kind.normal
            var parentIndex: Int32 = -1
            let roll = random.nextUnit()
            if roll < Self.noticeRate {
                postKind = .notice
            } else if roll < Self.noticeRate + Self.replyRate, !recent[boardIndex].isEmpty {
                let candidates = recent[boardIndex]
                parentIndex = candidates[Int(random.next() % UInt64(candidates.count))]
                postKind = .reply
                hasReply[Int(parentIndex)] = true
            }
            kind.append(postKind)
            parent.append(parentIndex)
            if recent[boardIndex].count == Self.replyWindow { recent[boardIndex].removeFirst() }
            recent[boardIndex].append(Int32(index))
        }
    }

    var count: Int { board.count }

    /// Relative board sizes: the first board gets ``largestBoardShare``, the others share the rest as 1/k.
    static func boardWeights(_ boards: Int) -> [Double] {
        guard boards > 1 else { return [1] }
        let harmonic = (1..<boards).reduce(0.0) { $0 + 1 / Double($1) }
        return [largestBoardShare] + (1..<boards).map { (1 - largestBoardShare) / Double($0) / harmonic }
    }

    /// An index drawn with probability proportional to its weight.
    static func pick(_ weights: [Double], _ random: inout SeededRandom) -> Int {
        var target = random.nextUnit() * weights.reduce(0, +)
        for (index, weight) in weights.enumerated() {
            if target < weight { return index }
            target -= weight
        }
        return weights.count - 1
    }
}
