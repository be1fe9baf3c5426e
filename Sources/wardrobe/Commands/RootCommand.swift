import CommandLineKit
import Wardrobe

/// `wardrobe`: the root of the command tree. New subcommands are listed here.
struct RootCommand: Command {
    static let configuration = CommandConfiguration(
        name: "wardrobe",
        abstract: "Keep a catalogue of clothing photos, classified by a Fashion-MNIST model.",
        discussion: """
            Exit status: 0 on success, 1 on failure, 2 when a command finished but some
            inputs failed (see each command), 64 for wrong usage.
            """,
        subcommands: [ImportCommand.self, ClassifyCommand.self, ReclassifyCommand.self, ListCommand.self,
                      ShowCommand.self, HistoryCommand.self, LabelCommand.self, ColourCommand.self, StatsCommand.self, ExportCommand.self,
                      FailuresCommand.self, PruneCommand.self, CaptureTimesCommand.self, ColoursCommand.self, FingerprintsCommand.self, DuplicatesCommand.self, SimilarCommand.self,
                      ForgetCommand.self,
                      PrepCommand.self, ModelCommand.self, ServeCommand.self, CheckCommand.self, BackupCommand.self,
                      CopyCommand.self, CompletionsCommand.self, ManualCommand.self])

    @Flag(name: "--version", help: "Show the version.")
    var version: Bool
    /// Words after an option (`wardrobe --version x`); subcommands are matched before them.
    @Argument(name: "WORD...", help: nil)
    var words: [String]

    func validate() throws(UsageError) {
        guard version else {
            throw UsageError(words.isEmpty ? "missing subcommand" : "unknown command '\(words[0])'")
        }
    }

    func run(_ console: Console) throws -> ExitStatus {
        console.output("wardrobe \(WardrobeVersion.current)")
        return .success
    }
}
