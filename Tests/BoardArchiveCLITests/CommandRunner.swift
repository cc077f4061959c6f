import Foundation

/// Runs the built `boardarchive` executable, the way a user or CI would.
enum CommandRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A fresh empty folder under the temporary directory; the caller removes it.
    static func temporaryFolder(_ prefix: String = "boardarchive-cli") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every file under `folder` (a built site, a store's folder) with its bytes, by relative path.
    static func files(under folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            var isDirectory: ObjCBool = false
            let full = folder.appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = FileManager.default.contents(atPath: full)
            }
        }
        return files
    }

    /// The `boardarchive` binary built next to the test bundle.
    static var executable: URL {
        let bundle = Bundle.main.bundleURL
        let candidates = [bundle.deletingLastPathComponent(), bundle, bundle.deletingLastPathComponent().deletingLastPathComponent()]
        for folder in candidates {
            let url = folder.appendingPathComponent("boardarchive")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundle.deletingLastPathComponent().appendingPathComponent("boardarchive")
    }

    /// Runs the command to completion, waiting on a thread of its own: a test waiting on Swift's cooperative threads
    /// would starve the in-process fixture servers of other tests running at the same time (with two cores there are
    /// two such threads), and under load their requests time out.
    static func run(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Swift.Result { try runBlocking(arguments, environment: environment, in: folder) })
            }.start()
        }
    }

    /// Runs the command to completion, blocking the calling thread.
    static func runBlocking(_ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["BOARD_API_TOKEN"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting so a chatty child cannot block on a full pipe.
        let errData = Mutexed<Data>(Data())
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errData.isSet { usleep(1_000) }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self))
    }

    /// A running `boardarchive fixture-api`, stopped with `stop()`.
    final class Background {
        let process: Process
        let url: String

        init(_ arguments: [String], environment: [String: String] = [:]) throws {
            process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            for (key, value) in environment { env[key] = value }
            process.environment = env
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var buffer = Data()
            while !buffer.contains(UInt8(ascii: "\n")) {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
            }
            let line = String(decoding: buffer, as: UTF8.self)
            guard let range = line.range(of: "http://") else {
                process.terminate()
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "fixture-api printed no URL: \(line)"])
            }
            url = String(line[range.lowerBound...].prefix { !$0.isWhitespace })
        }

        func stop() {
            process.interrupt()
            process.waitUntilExit()
        }
    }
}

/// A value set once from another thread.
final class Mutexed<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    private var written = false

    init(_ value: T) { stored = value }

    func set(_ value: T) {
        lock.lock()
        stored = value
        written = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return written
    }

    var value: T {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
