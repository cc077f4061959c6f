import Synchronization

/// Post bodies rendered to HTML during one feeds phase, by post id: a post in its board's feed and in the archive's
/// feed is rendered once (a 1 MB body took about 0.4 s to render for each feed).
final class RenderedBodies: Sendable {
    private let bodies = Mutex<[Int: String]>([:])

    init() {}

    /// The HTML of post `postId`'s body: rendered by `render` the first time, then remembered.
    func html(of postId: Int, _ render: () -> String) -> String {
        if let known = bodies.withLock({ $0[postId] }) { return known }
        let html = render()
        bodies.withLock { $0[postId] = html }
        return html
    }
}
