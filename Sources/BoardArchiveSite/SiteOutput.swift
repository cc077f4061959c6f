import BoardArchiveModel
import BoardArchiveRender
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects one build's files: which paths the build produces, from what (their digests), and the bytes of
/// those that changed, written into the staging folder.
///
/// Every phase first declares a file with ``needsRendering(_:digest:)``. When the previous build's manifest
/// has the same digest for the path, the file is kept as it is (not rendered, not read, not written) and the
/// call returns false. Otherwise the phase renders it and calls ``write(_:to:)``: bytes equal to the previous
/// file's are kept too (same file, same modification time); only different bytes go to the staging folder.
/// ``SitePublisher`` then moves the staged files into place and removes the files no longer produced.
/// Safe to call from many tasks at once.
final class SiteOutput: @unchecked Sendable {
    /// The staging folder being filled.
    let stagingDirectory: URL
    /// The previous site, if any, whose unchanged files are kept.
    let previousDirectory: URL?
    /// The previous build's state folder (``BuildState``), read only when there is a previous site.
    let previousStateDirectory: URL?
    /// What the previous site's files were made from; empty when it had no manifest (everything is rendered).
    let previousManifest: SiteManifest
    /// ``stagingDirectory``'s and ``previousDirectory``'s paths with a trailing `/`: a file's path is one of them plus its
    /// relative path (Foundation's `URL.appendingPathComponent` was 5 % of the board and post pages step).
    private let stagingPrefix: String
    private let previousPrefix: String?
    private let previousStatePrefix: String
    /// Whether the previous state describes the previous site (else none of its files is read).
    private let previousStateUsable: Bool
    /// Whether the staging folder must end up a complete site (no previous site to keep files from).
    var isComplete: Bool { previousDirectory == nil }

    private let lock = NSLock()
    /// Which rows of the previous manifest were declared (paths this build makes again); empty without a previous site.
    private var declaredRows: [Bool]
    /// Declared paths the previous manifest does not hold (every path without a previous site), with their digests.
    private var added = DeclaredPaths()
    /// Which declared paths were written or found equal to the previous file: rows of the previous manifest, and numbers
    /// of ``added``.
    private var settledRows: [Bool]
    private var settledAdded: [Bool] = []
    /// The declared paths written into the staging folder, as ``DeclaredKey``s.
    private var staged: [DeclaredKey] = []
    private var createdDirectories: Set<String> = [""]
    private var report = BuildReport()
    /// Declared paths the previous manifest holds, and how many of those with the same digest.
    private var previousPathsDeclared = 0
    private var previousDigestsMatched = 0
    /// Declared rows of the previous manifest with another digest, and their new digests.
    private var previousDigestsChanged: [(row: Int, digest: BuildDigest)] = []
    /// The caller's progress display, told of every file rendered and written.
    private let progress: ProgressMeter
    /// Whether the build failed and its steps still running must stop (``refuseFurtherFiles()``).
    private var refusing = false

    /// Creates a writer into `stagingDirectory` (which must exist) keeping files of `previousDirectory` and of its state
    /// folder `previousStateDirectory` (default: ``BuildState/defaultDirectory(for:)``).
    init(
        stagingDirectory: URL, previousDirectory: URL?, previousStateDirectory: URL? = nil, previousStateUsable: Bool = true,
        previousManifest: SiteManifest? = nil, progress: ProgressMeter = ProgressMeter()
    ) {
        self.previousStateUsable = previousStateUsable
        self.progress = progress
        self.stagingDirectory = stagingDirectory
        self.previousDirectory = previousDirectory
        self.previousStateDirectory = previousDirectory.map { previousStateDirectory ?? BuildState.defaultDirectory(for: $0) }
        self.previousManifest = previousDirectory == nil ? SiteManifest() : (previousManifest ?? SiteManifest())
        stagingPrefix = stagingDirectory.path + "/"
        previousPrefix = previousDirectory.map { $0.path + "/" }
        previousStatePrefix = (self.previousStateDirectory?.path ?? "") + "/"
        declaredRows = Array(repeating: false, count: self.previousManifest.count)
        settledRows = declaredRows
    }

    /// A declared path: a row of the previous manifest (0 and up), or a number of ``added`` (-1 for 0, and down). 32 bits:
    /// the staged list holds one per file written.
    private typealias DeclaredKey = Int32

    /// Declares that this build produces `relativePath` from inputs whose digest is `digest`; returns whether
    /// the file must be rendered and written (false: the previous build made it from the same inputs).
    ///
    /// - Throws: ``BuildError`` with ``BuildError/Reason/invalidOutputPath(_:)`` for an absolute path, a `..`
    ///   component, or a path declared twice in one build.
    func needsRendering(_ relativePath: String, digest: BuildDigest) throws -> Bool {
        try Self.checkPath(relativePath, in: stagingDirectory)
        let kind = Self.kind(of: relativePath)
        return try lock.withLock {
            report.files[kind, default: 0] += 1
            return try declare(relativePath, digest: digest)
        }
    }

    /// ``needsRendering(_:digest:)`` for many files of one kind at once, under one lock: a board's batch declares a few
    /// hundred pages, and taking the lock page by page from every core was a quarter of a rebuild's board step.
    func needsRendering(_ files: [(path: String, digest: BuildDigest)], kind: BuildReport.FileKind) throws -> [Bool] {
        for file in files { try Self.checkPath(file.path, in: stagingDirectory) }
        return try lock.withLock {
            report.files[kind, default: 0] += files.count
            var result: [Bool] = []
            result.reserveCapacity(files.count)
            for file in files { result.append(try declare(file.path, digest: file.digest)) }
            return result
        }
    }

    /// Makes every later declaration and write throw `CancellationError`: a step that failed stops the steps running beside
    /// it at their next file (``BuildStep/sideBySide(_:)``).
    func refuseFurtherFiles() {
        lock.withLock { refusing = true }
    }

    /// Records `relativePath` with `digest`; returns whether it must be rendered. The caller holds ``lock`` and counts the
    /// file's kind.
    private func declare(_ relativePath: String, digest: BuildDigest) throws -> Bool {
        if refusing { throw CancellationError() }
        if let row = previousManifest.row(of: relativePath) {
            guard !declaredRows[row] else { throw duplicate(relativePath) }
            declaredRows[row] = true
            previousPathsDeclared += 1
            if previousManifest.digest(atRow: row) == digest {
                previousDigestsMatched += 1
                return false
            }
            previousDigestsChanged.append((row, digest))
        } else {
            guard added.insert(relativePath, digest: digest) != nil else { throw duplicate(relativePath) }
            settledAdded.append(false)
        }
        report.rendered += 1
        progress.update { $0.filesRendered += 1 }
        return true
    }

    private func duplicate(_ relativePath: String) -> BuildError {
        BuildError(phase: .publish, reason: .invalidOutputPath(relativePath), location: stagingDirectory.path)
    }

    /// The key of a declared path, or nil when it was not declared. The caller holds ``lock``.
    private func declaredKey(_ relativePath: String) -> DeclaredKey? {
        if let row = previousManifest.row(of: relativePath) { return declaredRows[row] ? DeclaredKey(row) : nil }
        return added.number(of: relativePath).map { -1 - DeclaredKey($0) }
    }

    /// Marks the declared path `key` settled; false when it was settled before. The caller holds ``lock``.
    private func settle(_ key: DeclaredKey) -> Bool {
        if key >= 0 {
            defer { settledRows[Int(key)] = true }
            return !settledRows[Int(key)]
        }
        defer { settledAdded[Int(-1 - key)] = true }
        return !settledAdded[Int(-1 - key)]
    }

    /// The path of a declared key. The caller holds ``lock``.
    private func path(of key: DeclaredKey) -> String {
        key >= 0 ? previousManifest.paths[Int(key)] : added.path(Int(-1 - key))
    }

    /// How many paths were declared. The caller holds ``lock``.
    private var declaredCount: Int { previousPathsDeclared + added.count }

    /// Declares `relativePath` as kept from the previous build with the digest it had there; false (and nothing
    /// declared) when the previous build did not make it.
    func keepPrevious(_ relativePath: String) throws -> Bool {
        guard let digest = previousDigest(of: relativePath) else { return false }
        return try !needsRendering(relativePath, digest: digest)
    }

    /// Declares every path of `paths` (all of kind `kind`) kept from the previous build with the digest it had there, under
    /// one lock and with one lookup a path; false, with nothing declared, when the previous build did not make one of them.
    /// A kept search block declares its index files this way (about 2,000 a block, 950,000 at 1M posts).
    func keepPrevious(all paths: [String], kind: BuildReport.FileKind) throws -> Bool {
        var rows: [Int] = []
        rows.reserveCapacity(paths.count)
        for path in paths {
            guard let row = previousManifest.row(of: path) else { return false }
            rows.append(row)
        }
        // Checked once every path is known to the previous build (a path it did not make sends the block to be encoded
        // again, as a lookup per file did).
        for path in paths { try Self.checkPath(path, in: stagingDirectory) }
        try lock.withLock {
            if refusing { throw CancellationError() }
            for (path, row) in zip(paths, rows) {
                guard !declaredRows[row] else { throw duplicate(path) }
                declaredRows[row] = true
                report.files[kind, default: 0] += 1
                previousPathsDeclared += 1
                previousDigestsMatched += 1
            }
        }
        return true
    }

    /// Whether the previous build made `relativePath` from inputs with digest `digest`.
    func previousDigest(of relativePath: String) -> BuildDigest? {
        previousManifest.digest(of: relativePath)
    }

    /// The bytes of a file of the previous site or of its state, or nil.
    func previousContents(of relativePath: String) -> Data? {
        previousLocation(of: relativePath).flatMap { FileManager.default.contents(atPath: $0) }
    }

    /// Where the previous build left `relativePath` (a site or a state file), or nil without a previous site.
    private func previousLocation(of relativePath: String) -> String? {
        if !previousStateUsable, BuildState.isState(relativePath) { return nil }
        return previousPrefix.map { BuildState.location(of: relativePath, site: $0, state: previousStatePrefix) }
    }

    /// The bytes of a file of this build: staged, else kept from the previous site.
    func currentContents(of relativePath: String) -> Data? {
        FileManager.default.contents(atPath: stagingPrefix + relativePath) ?? previousContents(of: relativePath)
    }

    /// Writes `text` as UTF-8 to `relativePath` (such as `posts/12.html`), declared before with ``needsRendering(_:digest:)``.
    func write(_ text: String, to relativePath: String) throws {
        try write(Data(text.utf8), to: relativePath)
    }

    /// Writes `data` to `relativePath` in the staging folder unless the previous file holds exactly these bytes.
    func write(_ data: Data, to relativePath: String) throws {
        let declared = lock.withLock { declaredKey(relativePath) != nil }
        if !declared { _ = try needsRendering(relativePath, digest: BuildDigest(bytes: data)) }
        // What was written is kept as the path's key (a row or a number), not as a string: at a million posts, a
        // second copy of every path was about a tenth of the build's peak memory.
        let key = try lock.withLock {
            if refusing { throw CancellationError() }
            guard let key = declaredKey(relativePath), settle(key) else { throw duplicate(relativePath) }
            return key
        }
        if let previous = previousLocation(of: relativePath), Self.file(atPath: previous, holds: data) { return }
        try makeFolder(of: relativePath)
        try Self.writeFile(to: stagingPrefix + relativePath) { write in try data.withUnsafeBytes { try write($0) } }
        lock.withLock {
            report.written += 1
            progress.update { $0.filesWritten += 1 }
            staged.append(key)
        }
    }

    /// Writes a file whose digest is its own bytes (assets, the marker): declared and written in one step.
    func writeVerbatim(_ data: Data, to relativePath: String) throws {
        if try needsRendering(relativePath, digest: BuildDigest(bytes: data)) { try write(data, to: relativePath) }
    }

    /// Every relative path declared so far, with its digest: one table made on each call (publishing after a previous
    /// manifest not in order).
    var producedDigests: [String: BuildDigest] {
        lock.withLock {
            var digests: [String: BuildDigest] = [:]
            digests.reserveCapacity(declaredCount)
            for number in 0..<added.count { digests[added.path(number)] = added.digests[number] }
            for (row, declared) in declaredRows.enumerated() where declared {
                digests[previousManifest.paths[row]] = previousManifest.digest(atRow: row)
            }
            for change in previousDigestsChanged { digests[previousManifest.paths[change.row]] = change.digest }
            return digests
        }
    }

    /// How many paths were declared so far.
    var producedCount: Int { lock.withLock { declaredCount } }

    /// Every path declared so far for which `isIncluded` holds, in no order (the sitemap's pages: a string is made for
    /// each path declared, and kept only when included).
    func producedPaths(where isIncluded: (String) -> Bool) -> [String] {
        lock.withLock {
            var paths: [String] = []
            for number in 0..<added.count {
                let path = added.path(number)
                if isIncluded(path) { paths.append(path) }
            }
            for (row, declared) in declaredRows.enumerated() where declared && isIncluded(previousManifest.paths[row]) {
                paths.append(previousManifest.paths[row])
            }
            return paths
        }
    }

    /// Whether `relativePath` was declared in this build.
    func isProduced(_ relativePath: String) -> Bool {
        lock.withLock { declaredKey(relativePath) != nil }
    }

    /// The declared paths the previous manifest does not hold, with their digests, as the build holds them (every path
    /// of a build without a previous manifest).
    var addedPaths: DeclaredPaths {
        lock.withLock { added }
    }

    /// Whether every path of the previous manifest was declared again (so none is to be removed), and whether every one
    /// had the same digest: counted as paths are declared, so publishing need not compare the two tables.
    var previousManifestCoverage: (allDeclared: Bool, allSame: Bool) {
        lock.withLock {
            let count = previousManifest.count
            return (previousPathsDeclared == count, previousDigestsMatched == count)
        }
    }

    /// The rows of the previous manifest declared with another digest, with their new digests.
    var changedPreviousDigests: [(row: Int, digest: BuildDigest)] {
        lock.withLock { previousDigestsChanged }
    }

    /// Whether each row of the previous manifest was declared again.
    var declaredPreviousRows: [Bool] {
        lock.withLock { declaredRows }
    }

    /// The declared paths the previous manifest does not hold, with their digests.
    var addedDigests: [(path: String, digest: BuildDigest)] {
        lock.withLock { (0..<added.count).map { (path: added.path($0), digest: added.digests[$0]) } }
    }

    /// The paths written into the staging folder, sorted (a rebuild's journal lists them).
    var stagedPaths: [String] {
        lock.withLock { staged.map(path(of:)).sorted() }
    }

    /// How many files were written into the staging folder.
    var stagedCount: Int { lock.withLock { staged.count } }

    /// Whether `relativePath` was written into the staging folder.
    func isStaged(_ relativePath: String) -> Bool {
        lock.withLock { declaredKey(relativePath).map(staged.contains) ?? false }
    }

    /// The counts so far.
    var currentReport: BuildReport {
        lock.withLock {
            var report = report
            // Every declared file not written is kept as it was: unchanged inputs, or rendered to the same bytes.
            report.unchanged = declaredCount - report.written
            return report
        }
    }

    /// Checks that `relativePath` is a safe relative path.
    static func checkPath(_ relativePath: String, in staging: URL) throws {
        // On bytes: no component may be empty, `.` or `..` (so no leading, trailing or doubled `/` either).
        var valid = !relativePath.utf8.isEmpty
        var componentLength = 0
        var dots = 0
        for byte in relativePath.utf8 {
            if byte == UInt8(ascii: "/") {
                if componentLength == 0 || dots == componentLength && dots <= 2 { valid = false }
                componentLength = 0
                dots = 0
            } else {
                componentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        if componentLength == 0 || dots == componentLength && dots <= 2 { valid = false }
        guard valid else {
            throw BuildError(phase: .publish, reason: .invalidOutputPath(relativePath), location: staging.path)
        }
    }

    /// Creates the folder of `relativePath` in the staging tree once.
    private func makeFolder(of relativePath: String) throws {
        let folder = relativePath.lastIndex(of: "/").map { String(relativePath[..<$0]) } ?? ""
        try lock.withLock {
            guard !createdDirectories.contains(folder) else { return }
            let url = stagingDirectory.appendingPathComponent(folder, isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw BuildError(phase: .publish, underlying: error, location: url.path)
            }
            var prefix = ""
            for component in folder.split(separator: "/") {
                prefix += prefix.isEmpty ? String(component) : "/" + component
                createdDirectories.insert(prefix)
            }
        }
    }

    /// Creates (or truncates) the file at `url` and writes the bytes `produce` hands, piece by piece and in order, to
    /// the `write` it is given, with plain system calls: no temporary file and no `fsync` per file (Foundation's
    /// `Data.write` syncs every file, which cost more than rendering). The staging folder is not the live site:
    /// ``SitePublisher`` syncs the file system once before its commit point, so a crash never publishes a file whose
    /// bytes are not on disk.
    static func writeFile(to url: URL, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try writeFile(to: url.path, produce)
    }

    /// ``writeFile(to:_:)`` for a file path.
    static func writeFile(to path: String, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw writeError(path) }
        defer { close(descriptor) }
        try produce { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw writeError(path)
                }
                offset += written
            }
        }
    }

    private static func writeError(_ path: String) -> BuildError {
        BuildError(phase: .publish, reason: .underlying("cannot write a file: \(String(cString: strerror(errno)))"), location: path)
    }

    /// Whether `path` is a regular file holding exactly `data`.
    private static func file(atPath path: String, holds data: Data) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == data.count else { return false }
        guard let existing = FileManager.default.contents(atPath: path) else { return false }
        return existing == data
    }

    /// The report category of a path, from the URL contract.
    static func kind(of path: String) -> BuildReport.FileKind {
        if path == SitePaths.home { return .home }
        if path == SitePaths.archiveFeed || (path.hasPrefix("boards/") && path.hasSuffix("/feed.xml")) { return .feed }
        if path.hasPrefix("boards/") { return .board }
        if SitePaths.isVersion(path) { return .version }
        if path.hasPrefix("posts/") { return .post }
        if path.hasPrefix(SitePaths.assets) { return .asset }
        if path.hasPrefix("media/") { return .media }
        if path == SitePaths.search || path.hasPrefix("search/") { return .search }
        if path.hasPrefix("keywords/") { return .keyword }
        return .other
    }
}
