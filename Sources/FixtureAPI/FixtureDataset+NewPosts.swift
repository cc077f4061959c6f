import BoardArchive
import Foundation

extension FixtureDataset {
    /// This dataset with `count` new posts above the newest post of their board, as a night's new posts arrive.
    ///
    /// With `board`, every new post goes to that board; otherwise they are dealt to the boards in turn, in the dataset's
    /// board order. New ids count up from above every existing id; the k-th post of a board is dated k seconds after
    /// the board's newest post (or the reference date for an empty board). The same dataset and count always give the
    /// same posts.
    public func addingNewPosts(_ count: Int, toBoard board: Int? = nil) -> FixtureDataset {
        let targets = board.map { [$0] } ?? boards.map(\.boardId)
        guard count > 0, !targets.isEmpty else { return self }
        var newest: [Int: Date] = [:]
        for post in posts where targets.contains(post.boardId) {
            newest[post.boardId] = Swift.max(newest[post.boardId] ?? post.createdDateTime, post.createdDateTime)
        }
        var copy = self
        var added: [Int: Int] = [:]
        let firstId = (posts.map(\.postId).max() ?? 0) + 1
        for index in 0..<count {
            let target = targets[index % targets.count]
            added[target, default: 0] += 1
            let created = (newest[target] ?? referenceDate).addingTimeInterval(Double(added[target] ?? 1))
            copy.posts.append(
                Post(
                    postId: firstId + index, title: "밤새 올라온 글 \(firstId + index)", boardId: target,
                    boardDisplayName: boards.first { $0.boardId == target }?.displayName, writer: Writer(displayName: "야간"),
                    contents: "새 글 \(firstId + index)", createdDateTime: created))
        }
        return copy
    }
}
