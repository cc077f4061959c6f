import BoardArchiveModel
import Foundation

/// An error raised while building the site; each build phase wraps its failures once.
///
/// Template errors name the file and line (`templates/post.mustache:12`), output errors the folder. The
/// message is one sentence: what failed, where, what was expected, and the fix.
public struct BuildError: Error, LocalizedError, Equatable, Sendable {
    /// The build phase that failed.
    public enum Phase: String, Sendable, Equatable {
        /// Checking the configuration and the output folder before anything is written.
        case prepare
        /// Loading and checking the Mustache templates.
        case templates
        /// Reading the archive store.
        case store
        /// Rendering pages.
        case render
        /// Building the search index and keyword pages.
        case search
        /// Writing the Atom feeds, the sitemap and `robots.txt`.
        case discovery
        /// Writing into the staging folder and swapping it into place.
        case publish
    }

    /// Why the phase failed.
    public enum Reason: Equatable, Sendable {
        /// The templates folder does not exist.
        case templatesDirectoryNotFound
        /// A required template (`layout`, `home`, `board`, `post`, `search`, `keyword`, `keyword-index`) is missing.
        case templateNotFound(String)
        /// A template does not parse; the text is the parser's complaint.
        case templateSyntax(String)
        /// A `{{> name}}` tag names a partial that no template file provides.
        case partialNotFound(String)
        /// A template reads a key that no page context holds (a misspelling, or a key of another version).
        case unknownKey(String)
        /// A template refers to `assets/<path>` (or the build needs it) but the templates' `assets/` folder lacks it.
        case assetNotFound(String)
        /// The output folder is not empty and was not made by BoardArchive (no marker file).
        case outputNotManaged
        /// The output path exists and is not a folder.
        case outputNotDirectory
        /// The state folder cannot be kept beside the site (it is in the output folder, holds it, or is on another file system).
        case stateFolderMisplaced(String)
        /// A file path produced by the build is not a safe relative path, or was produced twice.
        case invalidOutputPath(String)
        /// Partials include each other in a loop; the chain of template files, ending where it started.
        case partialCycle([String])
        /// The store holds a board or post id beyond ±(2^53 − 1), which the site's search cannot carry exactly.
        case idBeyondRule(kind: String, id: Int)
        /// The site would lose more than half of the previous site's post pages; `--allow-shrink` publishes anyway.
        case wouldRemoveMostPosts(previous: Int, next: Int)
        /// The key of `--pseudonymize-writers` is too short to keep the writers' names secret.
        case pseudonymKeyTooShort(bytes: Int, minimum: Int)
        /// Any other failure, described by the underlying error.
        case underlying(String)
    }

    /// The phase that failed.
    public var phase: Phase
    /// Why it failed.
    public var reason: Reason
    /// Where it failed: `file:line` for templates, a path for files and folders, nil when nowhere in particular.
    public var location: String?

    /// Creates an error for `phase`.
    public init(phase: Phase, reason: Reason, location: String? = nil) {
        self.phase = phase
        self.reason = reason
        self.location = location
    }

    /// Wraps `error` for `phase`; a ``BuildError`` passes through unchanged.
    public init(phase: Phase, underlying error: any Error, location: String? = nil) {
        if let error = error as? BuildError {
            self = error
        } else {
            let text = (error as? LocalizedError)?.errorDescription ?? String(describing: error)
            self.init(phase: phase, reason: .underlying(text), location: location)
        }
    }

    /// One sentence: what failed, where, what was expected, and the fix.
    public var errorDescription: String? {
        let place = location.map { " at \($0)" } ?? ""
        switch reason {
        case .templatesDirectoryNotFound:
            return "Build failed: the templates folder\(place) does not exist; pass --templates DIR or run from the repository."
        case .templateNotFound(let name):
            return "Build failed: the required template \"\(name)\" is missing\(place); copy it from the default templates folder."
        case .templateSyntax(let detail):
            return "Build failed: template syntax error\(place): \(detail); fix the tag and rebuild."
        case .partialNotFound(let name):
            return "Build failed: the partial \"\(name)\" used\(place) has no template file \(name).mustache; add it or fix the tag."
        case .unknownKey(let name):
            let hint = name.hasPrefix("s.") ? "an interface string of Strings.swift" : "a key the page provides (docs/how-it-works.md: templates)"
            return "Build failed: the tag {{\(name)}}\(place) reads a key no page provides, so it would render as nothing; "
                + "use \(hint) or remove the tag."
        case .assetNotFound(let path):
            return "Build failed: the asset \"assets/\(path)\" used\(place) is not in the templates' assets folder; "
                + "add the file there or remove the reference."
        case .outputNotManaged:
            return "Build refused: the output folder\(place) is not empty and has no .boardarchive marker; "
                + "choose another folder or pass --force to replace it."
        case .outputNotDirectory:
            return "Build refused: the output path\(place) is not a folder; choose a folder or pass --force to replace it."
        case .stateFolderMisplaced(let rule):
            return "Build refused: the state folder\(place) cannot be kept beside the site: \(rule); choose another folder with --state."
        case .invalidOutputPath(let path):
            return "Build failed: the output file \"\(path)\" is not a safe relative path or was written twice\(place)."
        case .partialCycle(let chain):
            return "Build failed: the templates\(place) include each other in a loop (\(chain.joined(separator: " → "))), "
                + "which would never end; remove one of these {{> …}} tags."
        case .idBeyondRule(let kind, let id):
            return "Build refused: the store\(place) holds \(kind) \(id), beyond ±\(ArchiveID.maximum) (2^53 − 1), which the site's "
                + "search cannot link exactly; remove it from the store (a crawl by this boardarchive refuses such ids)."
        case .wouldRemoveMostPosts(let previous, let next):
            return "Build refused: the site\(place) has \(previous) post pages but this store would publish only \(next); "
                + "check --store, or pass --allow-shrink to publish the smaller site."
        case .pseudonymKeyTooShort(let bytes, let minimum):
            return "Build refused: the pseudonym key has \(bytes) bytes, fewer than \(minimum); put at least \(minimum) random bytes "
                + "in the key file or BOARDARCHIVE_PSEUDONYM_KEY (for example: head -c 32 /dev/urandom | base64)."
        case .underlying(let detail):
            return "Build failed in the \(phase.rawValue) phase\(place): \(detail)."
        }
    }
}
