import CommandLineKit
import Wardrobe

/// `wardrobe manual`
struct ManualCommand: Command {
    static let configuration = CommandConfiguration(
        name: "manual",
        abstract: "Print the manual page (roff), written from the help of every command.",
        discussion: """
            'make install' installs it as wardrobe(1); to read it without installing:
              wardrobe manual | man -l -
            """)

    func run(_ console: Console) throws -> ExitStatus {
        // A script or page, written exactly (nothing escaped for a terminal).
        try console.data(Array(ManualPage.render(root: RootCommand.self, version: WardrobeVersion.current).utf8))
        return .success
    }
}
