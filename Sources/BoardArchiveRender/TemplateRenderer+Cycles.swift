import Foundation

extension TemplateRenderer {
    /// Refuses templates whose partials include each other in a loop, directly (`a` includes `a`) or through others.
    ///
    /// swift-mustache expands partials by recursion without a depth limit, so such a loop overflows the stack and the
    /// process dies with a segmentation fault. Every `{{> name}}` and `{{< name}}` tag counts, even inside a section:
    /// the archive's page data is never a tree, so a partial never needs to include itself.
    ///
    /// - Parameters:
    ///   - sources: every template's name and text.
    ///   - directory: the templates folder, the error's location.
    /// - Throws: ``BuildError/Reason/partialCycle(_:)`` with the chain `a.mustache:3 → b.mustache:1 → a.mustache`.
    static func refusePartialCycles(in sources: [(name: String, text: String)], directory: URL) throws {
        var edges: [String: [(name: String, line: Int)]] = [:]
        for (name, text) in sources { edges[name] = partialReferences(in: text) }
        var finished: Set<String> = []
        // Depth-first, iteratively (a long chain of partials must not overflow the stack here either).
        for root in sources.map(\.name).sorted() where !finished.contains(root) {
            var path: [(name: String, next: Int)] = [(root, 0)]
            var onPath: Set<String> = [root]
            while let top = path.last {
                let references = edges[top.name] ?? []
                guard top.next < references.count else {
                    finished.insert(top.name)
                    onPath.remove(top.name)
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let reference = references[top.next]
                if onPath.contains(reference.name) {
                    let start = path.firstIndex { $0.name == reference.name } ?? 0
                    var steps = path[start...].map { step in (name: step.name, line: (edges[step.name] ?? [])[step.next - 1].line) }
                    // The same loop reads the same whichever template the search started from: from its first name.
                    let first = steps.indices.min { steps[$0].name < steps[$1].name } ?? 0
                    steps = Array(steps[first...] + steps[..<first])
                    let chain = steps.map { "\($0.name).mustache:\($0.line)" } + ["\(steps[0].name).mustache"]
                    throw BuildError(phase: .templates, reason: .partialCycle(chain), location: directory.path)
                }
                if !finished.contains(reference.name), edges[reference.name] != nil {
                    path.append((reference.name, 0))
                    onPath.insert(reference.name)
                }
            }
        }
    }
}
