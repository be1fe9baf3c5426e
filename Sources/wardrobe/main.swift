import CommandLineKit
import Foundation

// The executable only parses, calls the Wardrobe library, and prints.
let console = Console(environment: ProcessInfo.processInfo.environment)
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), root: RootCommand.self, console: console))
