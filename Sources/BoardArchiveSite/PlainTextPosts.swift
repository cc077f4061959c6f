import BoardArchiveRender
import Logging
import Synchronization

/// The posts a build rendered as plain text because cmark-gfm could not take them in bounded time
/// (``MarkdownBudget``), gathered from every core and reported once per build.
final class PlainTextPosts: Sendable {
    /// One post rendered as plain text, and why.
    struct Entry: Sendable, Equatable {
        var boardId: Int
        var postId: Int
        var reason: MarkdownBudget.Excess
    }

    private let entries = Mutex<[Int: Entry]>([:])

    init() {}

    /// Records that post `postId` of board `boardId` was rendered as plain text because of `reason` (once per post).
    func record(boardId: Int, postId: Int, reason: MarkdownBudget.Excess) {
        entries.withLock { entries in
            if entries[postId] == nil { entries[postId] = Entry(boardId: boardId, postId: postId, reason: reason) }
        }
    }

    /// Every recorded post, by post id.
    var all: [Entry] {
        entries.withLock { $0.values.sorted { $0.postId < $1.postId } }
    }

    /// Logs one warning per recorded post, naming the post and the reason, then forgets them (so a post is reported
    /// once per build).
    func report(to logger: Logger) {
        let recorded = all
        entries.withLock { $0.removeAll() }
        for entry in recorded {
            logger.warning(
                "Post rendered as plain text: the Markdown renderer could not take it in bounded time",
                metadata: ["board": "\(entry.boardId)", "post": "\(entry.postId)", "reason": "\(entry.reason)"])
        }
    }
}
