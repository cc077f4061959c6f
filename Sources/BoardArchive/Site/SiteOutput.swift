import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes one build's files into its staging folder, reusing the previous build's unchanged files.
///
/// When a file's new bytes equal the file at the same path in the previous site, the old file is
/// hard-linked into the staging folder instead of being written: after the swap it is the very same file
/// (same inode, same modification time), so an unchanged rebuild rewrites nothing, and the previous site
/// itself is never modified before the swap. Safe to call from many tasks at once.
///
/// Other phases (search, keyword pages) write through ``write(_:to:)`` too, so their files take part in
/// unchanged-skipping, stale-file removal and the report.
final class SiteOutput: @unchecked Sendable {
    /// The staging folder being filled.
    let stagingDirectory: URL
    /// The previous site, if any, whose unchanged files are reused.
    let previousDirectory: URL?

    private let lock = NSLock()
    private var produced: Set<String> = []
    private var createdDirectories: Set<String> = [""]
    private var report = BuildReport()

    /// Creates a writer into `stagingDirectory` (which must exist) comparing against `previousDirectory`.
    init(stagingDirectory: URL, previousDirectory: URL?) {
        self.stagingDirectory = stagingDirectory
        self.previousDirectory = previousDirectory
    }

    /// Writes `text` as UTF-8 to `relativePath` (such as `posts/12.html`).
    func write(_ text: String, to relativePath: String) throws {
        try write(Data(text.utf8), to: relativePath)
    }

    /// Writes `data` to `relativePath`, or links the previous build's identical file there.
    ///
    /// - Throws: ``BuildError`` with ``BuildError/Reason/invalidOutputPath(_:)`` for an absolute path, a `..`
    ///   component, or a path written twice in one build; the underlying error when the disk fails.
    func write(_ data: Data, to relativePath: String) throws {
        try reserve(relativePath)
        let destination = stagingDirectory.appendingPathComponent(relativePath)
        let reused = previousDirectory.map { reusePrevious(at: $0.appendingPathComponent(relativePath), for: data, at: destination) } ?? false
        if !reused {
            do {
                try data.write(to: destination)
            } catch {
                throw BuildError(phase: .publish, underlying: error, location: destination.path)
            }
        }
        let kind = Self.kind(of: relativePath)
        lock.withLock {
            if reused { report.unchanged += 1 } else { report.written += 1 }
            report.files[kind, default: 0] += 1
        }
    }

    /// Every relative path produced so far, sorted.
    var producedPaths: [String] {
        lock.withLock { produced.sorted() }
    }

    /// The counts so far.
    var currentReport: BuildReport {
        lock.withLock { report }
    }

    /// Checks the path, records it, and creates its folder in the staging tree.
    private func reserve(_ relativePath: String) throws {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.hasPrefix("/"), !components.isEmpty,
            !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else {
            throw BuildError(phase: .publish, reason: .invalidOutputPath(relativePath), location: stagingDirectory.path)
        }
        let folder = components.dropLast().joined(separator: "/")
        try lock.withLock {
            guard produced.insert(relativePath).inserted else {
                throw BuildError(phase: .publish, reason: .invalidOutputPath(relativePath), location: stagingDirectory.path)
            }
            if !createdDirectories.contains(folder) {
                let url = stagingDirectory.appendingPathComponent(folder, isDirectory: true)
                do {
                    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                } catch {
                    throw BuildError(phase: .publish, underlying: error, location: url.path)
                }
                var prefix = ""
                for component in components.dropLast() {
                    prefix += prefix.isEmpty ? String(component) : "/" + component
                    createdDirectories.insert(prefix)
                }
            }
        }
    }

    /// Links `old` to `destination` when it is a regular file holding exactly `data`; false when it must be written.
    private func reusePrevious(at old: URL, for data: Data, at destination: URL) -> Bool {
        var info = stat()
        guard lstat(old.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == data.count else { return false }
        guard let existing = try? Data(contentsOf: old), existing == data else { return false }
        if link(old.path, destination.path) == 0 { return true }
        // Another file system or no hard links: copy, keeping the old modification time.
        do {
            try FileManager.default.copyItem(at: old, to: destination)
            let attributes = try FileManager.default.attributesOfItem(atPath: old.path)
            if let date = attributes[.modificationDate] as? Date {
                try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: destination.path)
            }
            return true
        } catch {
            try? FileManager.default.removeItem(at: destination)
            return false
        }
    }

    /// The report category of a path, from the URL contract.
    static func kind(of path: String) -> BuildReport.FileKind {
        if path == SitePaths.home { return .home }
        if path.hasPrefix("boards/") { return .board }
        if path.hasPrefix("posts/") { return .post }
        if path.hasPrefix(SitePaths.assets) { return .asset }
        if path == SitePaths.search || path.hasPrefix("search/") { return .search }
        if path.hasPrefix("keywords/") { return .keyword }
        return .other
    }
}
