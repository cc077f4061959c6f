import Foundation

/// A `boardarchive` process started in the background, so a test can signal it, then wait for its result.
final class RunningCommand: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let stdout = Mutexed<Data>(Data())
    private let stderr = Mutexed<Data>(Data())

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["BOARD_API_TOKEN"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let (out, err, stdout, stderr) = (output, errors, stdout, stderr)
        Thread { stdout.set(out.fileHandleForReading.readDataToEndOfFile()) }.start()
        Thread { stderr.set(err.fileHandleForReading.readDataToEndOfFile()) }.start()
    }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits (on a thread of its own) until the process exits, and returns its status and output.
    func wait() async -> CommandRunner.Result {
        let (process, stdout, stderr) = (process, stdout, stderr)
        return await withCheckedContinuation { continuation in
            Thread {
                process.waitUntilExit()
                while !stdout.isSet || !stderr.isSet { usleep(1_000) }
                continuation.resume(
                    returning: CommandRunner.Result(
                        status: process.terminationStatus, stdout: String(decoding: stdout.value, as: UTF8.self),
                        stderr: String(decoding: stderr.value, as: UTF8.self)))
            }.start()
        }
    }
}
