import ArgumentParser
import BoardArchive

@main
struct BoardArchiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boardarchive", abstract: "Archive a board API into a static site.",
        discussion: ExitCodes.helpText,
        version: BoardArchiveVersion.string,
        subcommands: [
            InitCommand.self,
            DemoCommand.self,
            CrawlCommand.self,
            BuildCommand.self,
            ExportCommand.self,
            ServeCommand.self,
            RedactCommand.self,
            StoreCommand.self,
            FixtureAPICommand.self,
            BenchDataCommand.self,
        ])
}
