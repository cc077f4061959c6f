import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// `boardarchive serve [DIR]`: preview the built site over HTTP on `127.0.0.1`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Preview the built site over HTTP on 127.0.0.1 (Ctrl-C stops).",
        discussion: "Serves the folder's files with their content types, a folder's index.html for the folder, and refuses any "
            + "path leading outside the folder (.., %2e%2e, symbolic links pointing out). The site works from file:// too; "
            + "serve is for checking it as a web host would.\n\n" + ExitCodes.helpText)

    @Argument(help: "The site folder. Default: build.out (site).")
    var directory: String?

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 8000

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, not \(port).") }
    }

    func run() async throws {
        let folder: String
        do {
            let settings = try config.resolve(directory.map { ["build.out": .scalar($0)] } ?? [:])
            folder = try settings.required("build.out")
        } catch {
            throw exitWithError(error)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            Terminal.writeError("error: \(folder) is not a folder; build the site first (boardarchive build) or name its folder.\n")
            throw ExitCode(ExitCodes.cannotCreate)
        }
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        let logger = Logger(label: "serve", factory: { _ in SwiftLogNoOpLogHandler() })
        let application = Application(
            responder: PreviewResponder(files: PreviewFiles(root: root)),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                // Written straight to the file descriptor: print's buffer would hold the line back when stdout is a pipe.
                FileHandle.standardOutput.write(Data("Serving \(root.standardizedFileURL.path) at http://127.0.0.1:\(bound)/ (Ctrl-C stops)\n".utf8))
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            Terminal.writeError("error: cannot serve on 127.0.0.1:\(port): \(error); choose another --port.\n")
            throw ExitCode(ExitCodes.cannotCreate)
        }
    }
}
