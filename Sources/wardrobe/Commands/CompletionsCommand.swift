import CommandLineKit
import Wardrobe

/// `wardrobe completions bash|zsh|fish`
struct CompletionsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "completions",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        discussion: """
            Written from the same option declarations as help: subcommands, options, label
            names and recipe names. 'make install' installs all three; by hand:
              wardrobe completions bash > ~/.local/share/bash-completion/completions/wardrobe
              wardrobe completions zsh > ~/.zfunc/_wardrobe   (a folder on your fpath)
              wardrobe completions fish > ~/.config/fish/completions/wardrobe.fish
            """)

    @Argument(name: "SHELL", help: "bash, zsh or fish.")
    var shells: [ShellCompletion.Shell]

    func validate() throws(UsageError) {
        if shells.count != 1 { throw UsageError(shells.isEmpty ? "missing SHELL (bash, zsh or fish)" : "one SHELL at a time") }
    }

    /// What options take, where the tool knows it and no `ArgumentChoice` declares it:
    /// everything else with a value completes file names.
    static var values: [String: [String]] {
        let labels = ["t-shirt", "top", "trouser", "pullover", "dress", "coat", "sandal", "shirt", "sneaker", "bag",
                      "ankle-boot", "none"]
        let recipes = WardrobeSetup.recipeNames
        return ["--label": labels, "--prep": recipes, "--recipe": recipes + ["all"], "--colour": ColourSetter.names]
    }

    func run(_ console: Console) throws -> ExitStatus {
        // A script or page, written exactly (nothing escaped for a terminal).
        try console.data(Array(ShellCompletion.script(for: shells[0], root: RootCommand.self, values: CompletionsCommand.values).utf8))
        return .success
    }
}
