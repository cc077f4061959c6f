import ArgumentParser
import Foundation

/// `boardarchive init`: write a commented starter `boardarchive.yaml`.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Write a commented starter boardarchive.yaml into the working folder.",
        discussion: "Every setting is listed with its meaning, flag, environment variable and default. An existing file is kept "
            + "unless --force is given.\n\n" + ExitCodes.helpText)

    @Option(help: "Where to write the file.")
    var path: String = SettingsFile.defaultName

    @Flag(help: "Replace an existing file.")
    var force = false

    func run() throws {
        if FileManager.default.fileExists(atPath: path), !force {
            FileHandle.standardError.write(
                Data("error: \(path) already exists; edit it, or pass --force to replace it with a fresh starter file.\n".utf8))
            throw ExitCode(ExitCodes.cannotCreate)
        }
        do {
            try Data(StarterFile.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("error: cannot write \(path): \(error.localizedDescription)\n".utf8))
            throw ExitCode(ExitCodes.cannotCreate)
        }
        print("Wrote \(path). Set api.url in it, export the token in the variable named by api.token-env, then run `boardarchive export`.")
    }
}
