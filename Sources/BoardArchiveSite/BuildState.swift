import BoardArchiveModel
import BoardArchiveRender
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The build's own state (the manifest of what every file was made from, and the caches that let the next build keep
/// search blocks and pages unread), kept in a folder beside the site and never published with it.
///
/// The state folder is `<output>.boardarchive-state` beside the output folder unless the settings name one
/// (`build.state`). While a build runs, its state files are declared, digested and staged like the site's files under
/// the logical prefix ``prefix``; ``SitePublisher`` moves them into the state folder in the same commit as the site's
/// files, so the state always describes the site beside it. A site without its state (copied elsewhere, or the state
/// deleted) builds in full next time; a site an older boardarchive built with its state inside
/// (`.boardarchive-manifest`, `.boardarchive-cache/`) is migrated by ``migrateLegacyState(of:to:)`` and cleaned by the
/// build that follows.
enum BuildState {
    /// The logical folder of state files in a build: `.boardarchive-state/manifest` is `<state folder>/manifest`.
    static let prefix = ".boardarchive-state/"
    /// The logical folder of the caches.
    static let cache = prefix + "cache/"

    /// Whether a logical path is a state file (else it is a site file).
    static func isState(_ path: String) -> Bool { path.hasPrefix(prefix) }

    /// The file system path of a logical path: under `state` for a state file, else under `site` (both ending in `/`).
    static func location(of path: String, site: String, state: String) -> String {
        isState(path) ? state + path.dropFirst(prefix.count) : site + path
    }

    /// The state folder of an output folder when the settings name none: `<output>.boardarchive-state` beside it.
    static func defaultDirectory(for output: URL) -> URL {
        let output = output.standardizedFileURL
        return output.deletingLastPathComponent().appendingPathComponent(output.lastPathComponent + ".boardarchive-state", isDirectory: true)
    }

    /// The state folder's record of which site it describes: the device and inode of that site's marker file
    /// (`.boardarchive`), which every build keeps (it is never rewritten, only moved by renames). A site emptied, replaced
    /// or restored from a copy has another marker or none, and its next build is a full one.
    static let identityFile = "site-identity"
    /// The identity file's logical path.
    static let identityPath = prefix + identityFile

    /// The identity of the site whose marker is `marker`, or nil when there is none.
    static func identity(ofMarker marker: URL) -> String? {
        var info = stat()
        guard stat(marker.path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino)\n"
    }

    /// Whether the state folder `state` describes the site in `site` (see ``identityFile``).
    static func describes(site: URL, state: URL) -> Bool {
        guard let recorded = FileManager.default.contents(atPath: state.appendingPathComponent(identityFile).path),
            let actual = identity(ofMarker: site.appendingPathComponent(SitePaths.marker))
        else { return false }
        return String(decoding: recorded, as: UTF8.self) == actual
    }

    /// The manifest inside a site, where builds before the state folder kept it.
    static let legacyManifest = ".boardarchive-manifest"
    /// The caches inside a site, where builds before the state folder kept them.
    static let legacyCache = ".boardarchive-cache/"

    /// The state files an older build left inside `site` (relative paths), which the next publish removes.
    static func legacyPaths(in site: URL) -> [String] {
        let base = site.standardizedFileURL.path + "/"
        var paths: [String] = []
        if access(base + legacyManifest, F_OK) == 0 { paths.append(legacyManifest) }
        if access(base + legacyCache, F_OK) == 0 {
            paths += SitePublisher.files(under: URL(fileURLWithPath: base + legacyCache)).map { legacyCache + $0 }.sorted()
        }
        return paths
    }

    /// Moves the state an older build kept inside `site` into the state folder `state`, when `state` does not exist
    /// yet: its caches are hard-linked (the site keeps its files until the next publish removes them) and its manifest
    /// is written with the new paths. The state folder appears by one rename, so a failed or killed migration leaves
    /// no state folder (and the next build migrates again) or a whole one. Returns whether it migrated.
    ///
    /// - Throws: ``BuildError`` (phase `prepare`) naming the file that could not be linked or written.
    @discardableResult
    static func migrateLegacyState(of site: URL, to state: URL) throws -> Bool {
        let manager = FileManager.default
        let site = site.standardizedFileURL
        guard access(state.path, F_OK) != 0,
            let legacy = SiteManifest.load(file: site.appendingPathComponent(legacyManifest), header: SiteManifest.legacyHeader)
        else { return false }
        let parent = state.deletingLastPathComponent()
        let random = UUID().uuidString.prefix(8).lowercased()
        let temporary = parent.appendingPathComponent(
            ".\(state.lastPathComponent).migrating-\(ProcessInfo.processInfo.processIdentifier)-\(random)", isDirectory: true)
        do {
            try manager.createDirectory(at: temporary, withIntermediateDirectories: true)
            for path in legacyPaths(in: site) where path.hasPrefix(legacyCache) {
                let target = temporary.appendingPathComponent("cache/" + path.dropFirst(legacyCache.count))
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                // A state folder on another file system (the settings may name one) gets copies.
                guard link(site.path + "/" + path, target.path) != 0 else { continue }
                let code = errno
                guard code == EXDEV else {
                    throw BuildError(
                        phase: .prepare, reason: .underlying("cannot link a cache file into the state folder: \(String(cString: strerror(code)))"),
                        location: site.path + "/" + path)
                }
                try manager.copyItem(atPath: site.path + "/" + path, toPath: target.path)
            }
            var digests: [String: BuildDigest] = [:]
            digests.reserveCapacity(legacy.count)
            for (path, digest) in legacy.digests {
                digests[path.hasPrefix(legacyCache) ? cache + path.dropFirst(legacyCache.count) : path] = digest
            }
            try SiteManifest.write(digests, to: temporary.appendingPathComponent(SiteManifest.fileName))
            if let identity = identity(ofMarker: site.appendingPathComponent(SitePaths.marker)) {
                try Data(identity.utf8).write(to: temporary.appendingPathComponent(identityFile))
            }
            guard rename(temporary.path, state.path) == 0 else {
                throw BuildError(
                    phase: .prepare, reason: .underlying("cannot create the state folder: \(String(cString: strerror(errno)))"), location: state.path)
            }
        } catch {
            try? manager.removeItem(at: temporary)
            throw BuildError(phase: .prepare, underlying: error, location: temporary.path)
        }
        return true
    }
}
