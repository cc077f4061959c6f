import ArgumentParser
import BoardArchive
import FixtureAPI
import Foundation

/// `boardarchive bench-data`: writes a deterministic benchmark archive into a store, or mutates one for the rebuild
/// benchmarks.
struct BenchDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-data", abstract: "Generate a benchmark archive store, or change one for rebuild benchmarks.",
        discussion: """
            Generate: boardarchive bench-data --posts N --boards M --seed S --store FILE [--now ISO8601] \
            [--fixture-json FILE]. The archive has the shape of a real board: one board holds over half of the posts, \
            Korean and English text from a Zipf-distributed vocabulary, Markdown bodies of log-normal length (median \
            about 500 bytes, some past 20 KB), about 1 % notices, 10 % replies and 5 % anonymous posts, dated over the \
            five years before --now, some within its last two hours. The same arguments always write the same content. \
            --fixture-json also writes the boards and posts as a dataset for boardarchive fixture-api --data. \
            --image-share F (0 to 1, default 0) makes that share of the posts end with one or two Markdown images of \
            generated pictures, ![사진 1](/media/gen/K.png), which fixture-api serves; about one reference in twenty \
            shows a picture another post shows too. At 0 the content is the same as without the option.

            Mutate: boardarchive bench-data --store FILE --mutate new|edit|gone|vanish --count K [--seed S] [--now ISO8601]. \
            new adds K posts newer than every stored one, spread over the boards by size; edit changes the title and \
            body of K posts (the store keeps the replaced versions); gone deletes K posts, as a takedown would; vanish \
            marks K posts deleted at the source, as a crawl marks posts the API no longer lists. The posts chosen depend \
            only on the store, the seed and K.

            --now defaults to 2026-01-15T12:00:00Z, so that leaving it out stays deterministic.

            """ + ExitCodes.helpText)

    @Option(help: "Posts to generate.")
    var posts: Int?

    @Option(help: "Boards to spread the posts over.")
    var boards: Int = 20

    @Option(help: "Seed of every random choice.")
    var seed: UInt64 = 1

    @Option(help: "The archive store (SQLite file) to write or mutate.")
    var store: String

    @Option(help: "The moment the archive is \"as of\", ISO 8601 (default 2026-01-15T12:00:00Z).")
    var now: String?

    @Option(help: ArgumentHelp("Also write the archive as a fixture-api dataset JSON file.", valueName: "file"))
    var fixtureJson: String?

    @Option(help: "The share (0-1) of generated posts whose body shows one or two pictures from /media/gen/.")
    var imageShare: Double = 0

    @Option(help: ArgumentHelp("Change an existing store instead: new, edit, gone or vanish.", valueName: "kind"))
    var mutate: String?

    @Option(help: "How many posts --mutate adds, edits or deletes.")
    var count: Int?

    @Flag(help: "Delete an existing store file (and its -wal and -shm files) before generating.")
    var replace = false

    func validate() throws {
        if let now, BuildOptions.parseInstant(now) == nil {
            throw ValidationError("--now must be an ISO 8601 date-time such as 2026-01-15T12:00:00Z, not \"\(now)\".")
        }
        if let mutate {
            guard BenchmarkMutation(rawValue: mutate) != nil else {
                throw ValidationError("--mutate must be new, edit, gone or vanish, not \"\(mutate)\".")
            }
            guard let count, count >= 0 else { throw ValidationError("--mutate needs --count K, a number of posts (0 or more).") }
            if posts != nil || fixtureJson != nil || replace || imageShare != 0 {
                throw ValidationError("--mutate changes an existing store: leave out --posts, --fixture-json, --image-share and --replace.")
            }
        } else {
            guard let posts, posts >= 0 else { throw ValidationError("--posts N is required (0 or more), or --mutate with --count.") }
            guard boards >= 1 else { throw ValidationError("--boards must be at least 1, got \(boards).") }
            if count != nil { throw ValidationError("--count goes with --mutate.") }
            guard (0...1).contains(imageShare) else { throw ValidationError("--image-share must be between 0 and 1, got \(imageShare).") }
        }
    }

    func run() async throws {
        let instant = now.flatMap(BuildOptions.parseInstant) ?? BenchmarkArchive.defaultNow
        let started = Date()
        do {
            if let kind = mutate.flatMap(BenchmarkMutation.init(rawValue:)) {
                guard FileManager.default.fileExists(atPath: store) else {
                    throw StoreError(location: store, reason: .cannotOpen("no such file; generate it first with bench-data --posts N"))
                }
                let ids = try kind.apply(to: try ArchiveStore(path: store), count: count ?? 0, seed: seed, now: instant)
                let range = ids.isEmpty ? "" : " (ids \(ids.first ?? 0)…\(ids.last ?? 0))"
                print("Mutated \(store): \(kind.rawValue) \(ids.count) posts\(range) in \(Self.seconds(since: started)) s.")
            } else {
                try prepareStoreFile()
                let archive = BenchmarkArchive(posts: posts ?? 0, boards: boards, seed: seed, now: instant, imageShare: imageShare)
                let counts = try archive.write(
                    to: try ArchiveStore(path: store), fixture: fixtureJson.map { URL(fileURLWithPath: $0) })
                let shape = archive.shape
                print(
                    "Wrote \(counts.new + counts.changed + counts.unchanged) posts over \(archive.boards.count) boards into \(store) "
                        + "(\(shape.notices) notices, \(shape.replies) replies, \(shape.anonymous) anonymous) in \(Self.seconds(since: started)) s."
                )
                if let fixtureJson { print("Wrote the fixture dataset \(fixtureJson).") }
            }
        } catch let error as BenchmarkArchiveError {
            // Not among the library errors ExitCodes knows: a mutation bigger than the store is a usage error, an
            // unwritable fixture file an output error.
            let message = error.errorDescription ?? String(describing: error)
            FileHandle.standardError.write(Data("error: \(message)\n".utf8))
            if case .cannotWriteFixture = error.reason { throw ExitCode(ExitCodes.cannotCreate) }
            throw ExitCode(ExitCodes.usage)
        } catch {
            throw exitWithError(error)
        }
    }

    /// Refuses to write into an existing store (generated content would mix with it) unless `--replace` removes it.
    private func prepareStoreFile() throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: store) else { return }
        guard replace else {
            throw StoreError(
                location: store, reason: .cannotOpen("the file exists; pass --replace to delete it first, or --mutate to change it"))
        }
        for path in [store, store + "-wal", store + "-shm"] where manager.fileExists(atPath: path) {
            do { try manager.removeItem(atPath: path) } catch {
                throw StoreError(location: path, reason: .cannotOpen("it cannot be deleted: \(error.localizedDescription)"))
            }
        }
    }

    private static func seconds(since start: Date) -> String {
        String(format: "%.1f", Date().timeIntervalSince(start))
    }
}
